import type { RewardEntry, RewardEvent } from '../../db/generated/client';
import { microsToNumber } from '../../money';
import type { Chain } from '../wallets/wallets.limits';
import type { RewardEventKind, RewardState, RewardType } from './rewards.limits';

/** `USD` for cashback and referral shares, `points` for points. */
export type RewardUnit = 'USD' | 'points';

export function unitOf(type: RewardType): RewardUnit {
  return type === 'points' ? 'points' : 'USD';
}

/** One row of the rewards ledger as the API shows it (amounts in units, not micro-units). */
export interface RewardView {
  id: string;
  type: RewardType;
  state: RewardState;
  amount: number;
  unit: RewardUnit;
  /** The fee that caused it: `fee:<orderId>:<seq>`. */
  source: string;
  /** The fee in USD and the rate applied (basis points, or points per USD). */
  fee: number;
  rate: number;
  accruedAt: Date;
  availableAt: Date;
  claimId: string | null;
  claimedAt: Date | null;
}

/** One change of a reward (the audit trail). */
export interface RewardEventView {
  id: string;
  rewardId: string;
  type: RewardType;
  event: RewardEventKind;
  amount: number;
  unit: RewardUnit;
  source: string;
  claimId: string | null;
  at: Date;
}

export interface OffsetPage<T> {
  data: T[];
  limit: number;
  offset: number;
  total: number;
}

export function toRewardView(r: RewardEntry): RewardView {
  return {
    id: r.id.toString(),
    type: r.type,
    state: r.state,
    amount: microsToNumber(r.amountMicros),
    unit: unitOf(r.type),
    source: r.source,
    fee: microsToNumber(r.feeMicros),
    rate: r.rate,
    accruedAt: r.accruedAt,
    availableAt: r.availableAt,
    claimId: r.claimId,
    claimedAt: r.claimedAt,
  };
}

export function toRewardEventView(e: RewardEvent): RewardEventView {
  return {
    id: e.id.toString(),
    rewardId: e.rewardId.toString(),
    type: e.type,
    event: e.event,
    amount: microsToNumber(e.amountMicros),
    unit: unitOf(e.type),
    source: e.source,
    claimId: e.claimId,
    at: e.createdAt,
  };
}

/** Totals of one reward type by state. */
export interface RewardTotalsView {
  type: RewardType;
  unit: RewardUnit;
  pending: number;
  available: number;
  claimed: number;
  total: number;
}

export interface RewardsSummaryView {
  currency: 'USD';
  /** USD earned as cashback, in every state. */
  cashbackUsd: number;
  /** USD earned from referrals (both tiers), in every state. */
  referralUsd: number;
  /** Claimable now. */
  claimableUsd: number;
  pendingUsd: number;
  claimedUsd: number;
  points: number;
  byType: RewardTotalsView[];
  /** When the next held reward is released (null when nothing is held). */
  nextAvailableAt: Date | null;
}

export interface ReferralStatusView {
  /** The caller's own code (null until created with POST /api/rewards/referral/code). */
  code: string | null;
  /** The referral the caller applied. */
  referredBy: { code: string; appliedAt: Date } | null;
  /** Whether the caller may still apply a code (not referred, no fee charged yet). */
  canApply: boolean;
  /** Users the caller referred directly (tier 1) and those they referred (tier 2). */
  tier1Referrals: number;
  tier2Referrals: number;
  tier1EarnedUsd: number;
  tier2EarnedUsd: number;
}

export interface RewardClaimView {
  id: string;
  walletId: string;
  chain: Chain;
  address: string;
  amount: number;
  currency: 'USD';
  /** Rewards the claim paid out. */
  entries: number;
  /** The balance-ledger movement that credited it. */
  ledgerReference: string;
  createdAt: Date;
}
