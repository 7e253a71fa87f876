import { Field, Float, ID, Int, InterfaceType, ObjectType, registerEnumType } from 'type-graphql';
import { OutcomeEnum, TradeSideEnum, VenueEnum } from '../../../graphql/enums';
import type {
  LeaderboardMeView,
  LeaderboardPage,
  LeaderboardRow,
  TraderProfile,
  TraderStatsView,
  TraderTradePage,
  TraderTradeView,
} from './leaderboard.service';

export enum LeaderboardSortEnum {
  total_volume = 'total_volume',
  total_pnl = 'total_pnl',
  win_count = 'win_count',
  total_trades = 'total_trades',
}
registerEnumType(LeaderboardSortEnum, { name: 'LeaderboardSort' });

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
export class LeaderboardPageType implements LeaderboardPage {
  @Field(() => [LeaderboardRowType])
  data: LeaderboardRow[];
  @Field(() => LeaderboardSortEnum)
  sortBy: LeaderboardPage['sortBy'];
  @Field(() => Int)
  limit: number;
  @Field(() => Int)
  offset: number;
  @Field(() => Int)
  total: number;
}

@ObjectType('LeaderboardMe', { description: "The caller's rank and neighbours on the leaderboard." })
export class LeaderboardMeType implements LeaderboardMeView {
  @Field(() => LeaderboardSortEnum)
  sortBy: LeaderboardMeView['sortBy'];
  @Field(() => Int, { description: 'Traders on the board.' })
  total: number;
  @Field(() => [String], {
    description: "The caller's venue_a trader ids: their polygon wallet addresses, lower case.",
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
export class TraderTradeType implements TraderTradeView {
  @Field(() => ID, { description: '`venue:venueTradeId`.' })
  id: string;
  @Field(() => VenueEnum)
  venue: TraderTradeView['venue'];
  @Field()
  marketId: string;
  @Field(() => TradeSideEnum)
  side: TraderTradeView['side'];
  @Field(() => OutcomeEnum)
  outcome: TraderTradeView['outcome'];
  @Field(() => Float)
  price: number;
  @Field(() => Float)
  size: number;
  @Field()
  filledAt: Date;
}

@ObjectType('TraderTradePage')
export class TraderTradePageType implements TraderTradePage {
  @Field(() => [TraderTradeType])
  data: TraderTradeView[];
  @Field(() => Int)
  limit: number;
  @Field(() => Int)
  offset: number;
  @Field(() => Int)
  total: number;
}

@ObjectType('LeaderboardRefresh')
export class LeaderboardRefreshType {
  @Field(() => Int)
  traders: number;
  @Field(() => Int)
  trades: number;
  @Field()
  refreshedAt: Date;
}
