import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../../context';
import {
  LeaderboardMeType,
  LeaderboardPageType,
  LeaderboardRefreshType,
  TraderProfileType,
  TraderTradePageType,
} from './leaderboard.types';
import { LeaderboardArgs, LeaderboardMeArgs, TraderArgs, TraderTradesArgs } from './traders.inputs';
import { LeaderboardService } from './leaderboard.service';
import { TraderStatsService } from './trader-stats.service';

@Resolver()
export class LeaderboardResolver {
  @Query(() => LeaderboardPageType, { description: 'Traders ranked by a figure, optionally on one venue.' })
  leaderboard(@Args() a: LeaderboardArgs, @Ctx() ctx: GraphQLContext) {
    return ctx.services.get(LeaderboardService).leaderboard(a.sortBy, a.limit, a.offset, a.venue);
  }

  @Query(() => LeaderboardMeType, {
    description: "The caller's rank and neighbours (their traders: verified polygon wallets on venue_a).",
  })
  async leaderboardMe(@Args() a: LeaderboardMeArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(LeaderboardService).me(userId, a.sortBy, a.neighbours);
  }

  @Query(() => TraderProfileType)
  trader(@Args() a: TraderArgs, @Ctx() ctx: GraphQLContext) {
    return ctx.services.get(LeaderboardService).profile(a.venue, a.traderId);
  }

  @Query(() => TraderTradePageType, { description: "A trader's public trades, newest first." })
  traderTrades(@Args() a: TraderTradesArgs, @Ctx() ctx: GraphQLContext) {
    return ctx.services.get(LeaderboardService).trades(a.venue, a.traderId, a.limit, a.offset);
  }

  @Mutation(() => LeaderboardRefreshType, {
    description: 'Recomputes every trader from the trades (bearer + X-Admin-Token).',
  })
  async refreshLeaderboard(@Ctx() ctx: GraphQLContext) {
    await ctx.auth.requireUser();
    ctx.auth.requireHeaderToken('admin');
    const r = await ctx.services.get(TraderStatsService).rebuild();
    return { ...r, refreshedAt: new Date() };
  }
}
