import type { ExecutionMode } from '../execution/execution.limits';
import type { HoldingSource } from './portfolio.limits';
import type { PositionView, VenueMarkStatusView } from './portfolio.models';
import type { WeeklyRankView } from './trade-history.service';

/** Open positions of one bucket (a venue or a category). */
/** The open positions of one bucket of a breakdown (a venue, a category, a source) and their value. */
export interface PositionBucketView {
  /** Open positions. */
  positions: number;
  costBasis: number;
  /** At the marks; an unmarked position counts at cost. */
  marketValue: number;
  unrealizedPnl: number;
}

export interface ExposureView extends PositionBucketView {
  key: string;
  /** Of the portfolio's market value, 0..1. */
  share: number;
}

export interface SourcePnlView extends PositionBucketView {
  source: HoldingSource;
  realizedPnl: number;
  fees: number;
}

/** Open positions across the service and the linked wallets, with their totals. */
export interface OpenPositionsView {
  data: PositionView[];
  total: number;
  costBasis: number;
  marketValue: number;
  unrealizedPnl: number;
  unmarkedPositions: number;
  markStatus: VenueMarkStatusView[];
}

export interface SummaryView {
  currency: 'USD';
  realizedPnl: number;
  unrealizedPnl: number;
  totalPnl: number;
  fees: number;
  costBasis: number;
  marketValue: number;
  openPositions: number;
  closedPositions: number;
  unmarkedPositions: number;
  exposureByVenue: ExposureView[];
  exposureByCategory: ExposureView[];
  bySource: SourcePnlView[];
  markStatus: VenueMarkStatusView[];
}

export interface CategoryStatsView {
  category: string;
  closedPositions: number;
  wins: number;
  losses: number;
  winRate: number | null;
  realizedPnl: number;
  openPositions: number;
  exposure: number;
  exposureShare: number;
}

export interface AnalyticsView {
  categories: CategoryStatsView[];
  totalExposure: number;
  exposureByVenue: ExposureView[];
  weeklyRank: WeeklyRankView;
  markStatus: VenueMarkStatusView[];
}

export interface BalancesView {
  currency: 'USD';
  /** Ledger funds free to trade or withdraw. */
  available: number;
  /** Ledger funds held (pending withdrawals). */
  held: number;
  /** USD value of the user's wallets; null when the chain-balances upstream failed. */
  onchain: number | null;
  onchainError: string | null;
  /** Open positions at their marks. */
  positionsValue: number;
  /** available + held + onchain + positionsValue. */
  equity: number;
}

/** The root of the portfolio fields: whose portfolio, read when. */
export interface PortfolioRoot {
  userId: string;
  asOf: Date;
  /** `live`, or `simulation`: the paper account. */
  mode: ExecutionMode;
}
