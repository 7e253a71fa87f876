import { Field, Float, ID, Int, InterfaceType, ObjectType } from 'type-graphql';
import { graphqlEnum, VenueEnum } from '../../../graphql/enums';
import { OffsetPageType } from '../../../graphql/paging';
import { TradeFieldsType } from '../../trades/trades.types';
import { LEADERBOARD_SORTS } from './traders.limits';
import type {
  LeaderboardMeView,
  LeaderboardPage,
  LeaderboardRow,
  TraderProfile,
  TraderStatsView,
  TraderTradePage,
  TraderTradeView,
} from './leaderboard.service';

export const LeaderboardSortEnum = graphqlEnum(LEADERBOARD_SORTS, { name: 'LeaderboardSort' });

@InterfaceType('TraderStats', { description: "A trader's figures from public trades (USD)." })
export abstract class TraderStatsType implements TraderStatsView {
  @Field(() => VenueEnum)
  venue: TraderStatsView['venue'];
  @Field()
  traderId: string;
  @Field(() => Float, { description: 'Sum of price × size.' })
  totalVolume: number;
  @Field(() => Float, { description: 'Realized plus unrealized at the last refresh.' })
  totalPnl: number;
  @Field(() => Float)
  realizedPnl: number;
  @Field(() => Float, { description: 'Marked to market at the last leaderboard refresh.' })
  unrealizedPnl: number;
  @Field(() => Int, { description: 'Sells that realized a gain.' })
  winCount: number;
  @Field(() => Int)
  lossCount: number;
  @Field(() => Int)
  totalTrades: number;
  @Field()
  firstTradeAt: Date;
  @Field()
  lastTradeAt: Date;
}

@ObjectType('LeaderboardRow', { implements: TraderStatsType })
export class LeaderboardRowType extends TraderStatsType implements LeaderboardRow {
  @Field(() => Int)
  rank: number;
}

@ObjectType('LeaderboardPage')
export class LeaderboardPageType extends OffsetPageType<LeaderboardRow>(LeaderboardRowType) implements LeaderboardPage {
  @Field(() => LeaderboardSortEnum)
  sortBy: LeaderboardPage['sortBy'];
}

@ObjectType('LeaderboardMe', { description: "The caller's rank and neighbours on the leaderboard." })
export class LeaderboardMeType implements LeaderboardMeView {
  @Field(() => LeaderboardSortEnum)
  sortBy: LeaderboardMeView['sortBy'];
  @Field(() => Int, { description: 'Traders on the board.' })
  total: number;
  @Field(() => [String], {
    description: "The caller's venue_a trader ids: their verified polygon wallet addresses, lower case.",
  })
  traderIds: string[];
  @Field(() => Int, { nullable: true, description: "Best rank among the caller's traders; null when none has traded." })
  rank: number | null;
  @Field(() => LeaderboardRowType, { nullable: true, description: "The caller's best-ranked trader." })
  me: LeaderboardRow | null;
  @Field(() => [LeaderboardRowType], {
    description: 'Rows from rank − neighbours to rank + neighbours, the caller included; empty when unranked.',
  })
  neighbours: LeaderboardRow[];
}

@ObjectType('TraderProfile', { implements: TraderStatsType })
export class TraderProfileType extends TraderStatsType implements TraderProfile {
  @Field(() => Int)
  followers: number;
  @Field(() => Int, {
    description:
      "Rank by total volume on the venue: the trader's rank on the venue's total_volume leaderboard (ties by " +
      'trader id).',
  })
  volumeRank: number;
}

@ObjectType('TraderTrade')
export class TraderTradeType extends TradeFieldsType implements TraderTradeView {
  @Field(() => ID, { description: '`venue:venueTradeId`.' })
  id: string;
  @Field()
  marketId: string;
}

@ObjectType('TraderTradePage')
export class TraderTradePageType extends OffsetPageType<TraderTradeView>(TraderTradeType) implements TraderTradePage {}

@ObjectType('LeaderboardRefresh')
export class LeaderboardRefreshType {
  @Field(() => Int)
  traders: number;
  @Field(() => Int)
  trades: number;
  @Field()
  refreshedAt: Date;
}
