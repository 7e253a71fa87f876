import { defineModule, provide } from '../../../kernel';
import { HistoryService } from '../../charts/charts.service';
import { EventsService } from '../../events/events.service';
import { FollowTradesResolver } from './follow-trades.resolver';
import { FollowTradesService } from './follow-trades.service';
import { LeaderboardResolver } from './leaderboard.resolver';
import { LeaderboardService } from './leaderboard.service';
import { TraderStatsService } from './trader-stats.service';

/** Traders: their stats from public trades, the leaderboard, profiles, and follow-trade bubbles on charts. */
export const tradersModule = defineModule({
  name: 'social/traders',
  resolvers: [LeaderboardResolver, FollowTradesResolver],
  services: [
    provide(TraderStatsService, ({ db }) => new TraderStatsService(db.prisma)),
    provide(LeaderboardService, ({ db }) => new LeaderboardService(db.prisma)),
    provide(
      FollowTradesService,
      ({ db, get }) => new FollowTradesService(db.prisma, get(EventsService), get(HistoryService)),
    ),
  ],
});
