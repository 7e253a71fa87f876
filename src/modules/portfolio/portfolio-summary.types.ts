import type { ExecutionMode } from '../execution/execution.limits';
import { ExecutionModeEnum } from './portfolio.types';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type { HoldingSource } from './portfolio.limits';
import type { PositionView, VenueMarkStatusView } from './portfolio.models';
import type {
  AnalyticsView,
  BalancesView,
  CategoryStatsView,
  ExposureView,
  OpenPositionsView,
  PortfolioRoot,
  PositionBucketView,
  SourcePnlView,
  SummaryView,
} from './portfolio-valuation.models';
import { HoldingSourceEnum, PositionType, VenueMarkStatusType } from './portfolio.types';
import type { WeeklyRankView } from './trade-history.service';

@ObjectType('Portfolio', { description: "The caller's portfolio: each field is one part of the portfolio screen." })
export class PortfolioType implements PortfolioRoot {
  @Field(() => ID)
  userId: string;
  @Field()
  asOf: Date;
  @Field(() => ExecutionModeEnum, { description: '`live`, or `simulation`: the paper account.' })
  mode: ExecutionMode;
}

@ObjectType('PortfolioBalances', {
  description: 'Ledger balance, on-chain wallet value and open positions at their marks, in USD.',
})
export class PortfolioBalancesType implements BalancesView {
  @Field()
  currency: 'USD';
  @Field(() => Float)
  available: number;
  @Field(() => Float)
  held: number;
  @Field(() => Float, {
    nullable: true,
    description: 'Null when the chain-balances upstream failed (see onchainError).',
  })
  onchain: number | null;
  @Field(() => String, { nullable: true })
  onchainError: string | null;
  @Field(() => Float)
  positionsValue: number;
  @Field(() => Float, { description: 'available + held + onchain + positionsValue.' })
  equity: number;
}

@ObjectType('PortfolioPositions', { description: 'Open positions across the service and linked wallets, with totals.' })
export class PortfolioPositionsType implements OpenPositionsView {
  @Field(() => [PositionType])
  data: PositionView[];
  @Field(() => Int)
  total: number;
  @Field(() => Float)
  costBasis: number;
  @Field(() => Float, { description: 'At the marks; unmarked positions at cost.' })
  marketValue: number;
  @Field(() => Float, { description: 'Over the marked positions.' })
  unrealizedPnl: number;
  @Field(() => Int)
  unmarkedPositions: number;
  @Field(() => [VenueMarkStatusType])
  markStatus: VenueMarkStatusView[];
}

/** The value fields of a breakdown's bucket, alike in `Exposure` and `SourcePnl`. Never named in the schema. */
@ObjectType()
export abstract class PositionBucketFieldsType implements Omit<PositionBucketView, 'positions'> {
  @Field(() => Float)
  costBasis: number;
  @Field(() => Float)
  marketValue: number;
  @Field(() => Float)
  unrealizedPnl: number;
}

@ObjectType('Exposure', { description: 'Open positions of one venue or category.' })
export class ExposureType extends PositionBucketFieldsType implements ExposureView {
  @Field({ description: 'The venue or the category.' })
  key: string;
  @Field(() => Int)
  positions: number;
  @Field(() => Float, { description: 'Of the portfolio market value, 0..1.' })
  share: number;
}

@ObjectType('SourcePnl', { description: 'PnL and exposure of the service positions or of the linked wallets.' })
export class SourcePnlType extends PositionBucketFieldsType implements SourcePnlView {
  @Field(() => HoldingSourceEnum)
  source: HoldingSource;
  @Field(() => Int, { description: 'Open positions.' })
  positions: number;
  @Field(() => Float)
  realizedPnl: number;
  @Field(() => Float)
  fees: number;
}

@ObjectType('PortfolioSummary', {
  description: 'Realized and unrealized PnL, fees and exposure by venue and category.',
})
export class PortfolioSummaryType implements SummaryView {
  @Field()
  currency: 'USD';
  @Field(() => Float, { description: 'Over every position (fees included).' })
  realizedPnl: number;
  @Field(() => Float, { description: 'Over the open, marked positions.' })
  unrealizedPnl: number;
  @Field(() => Float)
  totalPnl: number;
  @Field(() => Float, { description: 'Trading fees paid on service orders.' })
  fees: number;
  @Field(() => Float)
  costBasis: number;
  @Field(() => Float)
  marketValue: number;
  @Field(() => Int)
  openPositions: number;
  @Field(() => Int)
  closedPositions: number;
  @Field(() => Int)
  unmarkedPositions: number;
  @Field(() => [ExposureType])
  exposureByVenue: ExposureView[];
  @Field(() => [ExposureType])
  exposureByCategory: ExposureView[];
  @Field(() => [SourcePnlType])
  bySource: SourcePnlView[];
  @Field(() => [VenueMarkStatusType])
  markStatus: VenueMarkStatusView[];
}

@ObjectType('CategoryStats', { description: 'Closed-position win rate and open exposure of one category.' })
export class CategoryStatsType implements CategoryStatsView {
  @Field()
  category: string;
  @Field(() => Int)
  closedPositions: number;
  @Field(() => Int, { description: 'Closed with a realized gain (fees included).' })
  wins: number;
  @Field(() => Int)
  losses: number;
  @Field(() => Float, { nullable: true, description: 'wins / (wins + losses); null before any decided close.' })
  winRate: number | null;
  @Field(() => Float)
  realizedPnl: number;
  @Field(() => Int)
  openPositions: number;
  @Field(() => Float)
  exposure: number;
  @Field(() => Float)
  exposureShare: number;
}

@ObjectType('WeeklyRank', {
  description: 'Rank by volume traded through the service this ISO week (Monday 00:00 UTC onwards).',
})
export class WeeklyRankType implements WeeklyRankView {
  @Field()
  weekStart: Date;
  @Field()
  weekEnd: Date;
  @Field()
  metric: 'volume';
  @Field(() => Float)
  volume: number;
  @Field(() => Int)
  trades: number;
  @Field(() => Int, {
    nullable: true,
    description: '1 = most volume; ties share a rank; null when the caller has not traded this week.',
  })
  rank: number | null;
  @Field(() => Int)
  participants: number;
}

@ObjectType('PortfolioAnalytics')
export class PortfolioAnalyticsType implements AnalyticsView {
  @Field(() => [CategoryStatsType])
  categories: CategoryStatsView[];
  @Field(() => Float)
  totalExposure: number;
  @Field(() => [ExposureType])
  exposureByVenue: ExposureView[];
  @Field(() => WeeklyRankType)
  weeklyRank: WeeklyRankView;
  @Field(() => [VenueMarkStatusType])
  markStatus: VenueMarkStatusView[];
}
