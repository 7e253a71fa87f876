import type { RewardType } from './rewards.limits';
import type { RewardEntryFields, RewardUnit } from './rewards.models';

/** A time window `[from, to)` of fee (ledger) times. */
export interface TimeWindow {
  from: Date;
  to: Date;
}

/** What a report over a window of fee times starts with: the window and the trading fees in it. */
export interface FeeWindowReport extends TimeWindow {
  /** Trading fees in the ledger in the window. */
  fees: number;
}

/** Why a fee's rewards and the ledger disagree. */
export const DISCREPANCY_REASONS = ['missing', 'unexpected', 'beneficiary', 'amount', 'orphan'] as const;
export type DiscrepancyReason = (typeof DISCREPANCY_REASONS)[number];

export interface DiscrepancyView {
  reason: DiscrepancyReason;
  /** The fee key (`fee:<orderId>:<seq>`). */
  source: string;
  type: RewardType;
  /** The beneficiary the rules name (null: nobody should earn this). */
  expectedUserId: string | null;
  /** The beneficiary stored (null: no row). */
  recordedUserId: string | null;
  expected: number;
  recorded: number;
  rewardId: string | null;
}

export interface TypeReconciliationView {
  type: RewardType;
  unit: RewardUnit;
  expectedCount: number;
  recordedCount: number;
  expected: number;
  recorded: number;
}

export interface ReconciliationView extends FeeWindowReport {
  /** The window's trading fees in USD. */
  feesUsd: number;
  byType: TypeReconciliationView[];
  /** Every discrepancy is counted; the first ones are listed. */
  discrepancyCount: number;
  discrepancies: DiscrepancyView[];
  balanced: boolean;
  checkedAt: Date;
}

/** One rewards-ledger row as exported (amounts as exact decimal strings). */
export interface RewardExportRow extends RewardEntryFields {
  userId: string;
  state: string;
  amount: string;
  sourceUserId: string;
  fee: string;
}

export interface ReplayReportView extends FeeWindowReport {
  /** Rewards written by this replay (0 when nothing was missing). */
  inserted: number;
}
