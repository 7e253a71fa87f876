import type { Prisma, RewardEntry, RewardEvent } from '../../db/generated/client';
import { microsToNumber } from '../../money';
import type { Chain } from '../wallets/wallets.limits';
import type { RewardEventKind, RewardState, RewardType } from './rewards.limits';

/** `USD` for cashback and referral shares, `points` for points. */
export type RewardUnit = 'USD' | 'points';

export function unitOf(type: RewardType): RewardUnit {
  return type === 'points' ? 'points' : 'USD';
}

/**
 * What every view of a rewards-ledger row shows, whatever its amounts are written as: the API's
 * reward (numbers) and the export row (exact decimal strings).
 */
export interface RewardEntryFields {
  id: string;
  type: RewardType;
  unit: RewardUnit;
  /** The fee that caused it: `fee:<orderId>:<seq>`. */
  source: string;
  /** The rate applied to the fee (basis points, or points per USD). */
  rate: number;
  accruedAt: Date;
  availableAt: Date;
  claimId: string | null;
  claimedAt: Date | null;
}

/** The fields of a rewards-ledger row every view shows. */
export function rewardEntryFields(r: RewardEntry): RewardEntryFields {
  return {
    id: r.id.toString(),
    type: r.type,
    unit: unitOf(r.type),
    source: r.source,
    rate: r.rate,
    accruedAt: r.accruedAt,
    availableAt: r.availableAt,
    claimId: r.claimId,
    claimedAt: r.claimedAt,
  };
}

/** One row of the rewards ledger as the API shows it (amounts in units, not micro-units). */
export interface RewardView extends RewardEntryFields {
  state: RewardState;
  amount: number;
  /** The fee in USD. */
  fee: number;
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

export type { OffsetPage } from '../../db/offset-page';

export function toRewardView(r: RewardEntry): RewardView {
  return {
    ...rewardEntryFields(r),
    state: r.state,
    amount: microsToNumber(r.amountMicros),
    fee: microsToNumber(r.feeMicros),
  };
}

/** A reward that has just moved (accrued, released or claimed), as its audit trail records it. */
export interface MovedReward {
  id: bigint;
  userId: string;
  type: RewardType;
  amountMicros: bigint;
  source: string;
}

/** The audit-trail rows of rewards that moved: every change of a reward appends one, in the same transaction. */
export function trailOf(
  event: RewardEventKind,
  rewards: readonly MovedReward[],
  claimId?: string,
): Prisma.RewardEventCreateManyInput[] {
  return rewards.map((r) => ({
    rewardId: r.id,
    userId: r.userId,
    type: r.type,
    event,
    amountMicros: r.amountMicros,
    source: r.source,
    claimId,
  }));
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
