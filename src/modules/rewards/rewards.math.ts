import type { RewardType } from './rewards.limits';

/**
 * The pure reward rules, shared by the fee listener, the replay and the
 * reconciliation so all three compute the same rows.
 */

/** The shares of a fee in force: basis points of the fee, and points per USD of fee. */
export interface RewardRates {
  cashbackBps: number;
  tier1Bps: number;
  tier2Bps: number;
  pointsPerUsd: number;
}

/** A fee as the ledger records it. */
export interface FeeFact {
  /** The fee's ledger idempotency key, `fee:<orderId>:<seq>`: its identity. */
  key: string;
  userId: string;
  feeMicros: bigint;
  /** The fee's ledger time. */
  at: Date;
}

/** A user's referral: who referred them and when (null when nobody did). */
export interface ReferralLink {
  referrerId: string;
  referredAt: Date;
}

/** Who earns referral shares of one fee. */
export interface Upline {
  tier1: string | null;
  tier2: string | null;
}

/** One reward a fee earns. */
export interface Accrual {
  userId: string;
  type: RewardType;
  amountMicros: bigint;
  rate: number;
}

/** A basis-point share of a micro-unit amount, rounded down (a reward never exceeds its share). */
export function bpsShare(micros: bigint, bps: number): bigint {
  return (micros * BigInt(bps)) / 10_000n;
}

/** Points for a fee, in micro-points: exact (fee in USD × points per USD). */
export function pointsFor(feeMicros: bigint, pointsPerUsd: number): bigint {
  return feeMicros * BigInt(pointsPerUsd);
}

/**
 * The payer's referrers as of a fee: a referral earns on fees charged strictly
 * after it was made, so tier 1 is the payer's referrer if referred before the
 * fee, and tier 2 that referrer's referrer if referred before the fee too.
 */
export function uplineAt(payer: ReferralLink | null, parent: ReferralLink | null, at: Date): Upline {
  if (!payer || payer.referredAt.getTime() >= at.getTime()) return { tier1: null, tier2: null };
  const tier2 = parent && parent.referredAt.getTime() < at.getTime() ? parent.referrerId : null;
  return { tier1: payer.referrerId, tier2 };
}

/** The rewards one fee earns; shares that round to zero earn nothing. */
export function accrualsFor(fee: FeeFact, upline: Upline, rates: RewardRates): Accrual[] {
  if (fee.feeMicros <= 0n) return [];
  const out: Accrual[] = [
    {
      userId: fee.userId,
      type: 'cashback',
      amountMicros: bpsShare(fee.feeMicros, rates.cashbackBps),
      rate: rates.cashbackBps,
    },
    {
      userId: fee.userId,
      type: 'points',
      amountMicros: pointsFor(fee.feeMicros, rates.pointsPerUsd),
      rate: rates.pointsPerUsd,
    },
  ];
  if (upline.tier1 !== null) {
    out.push({
      userId: upline.tier1,
      type: 'referral_tier1',
      amountMicros: bpsShare(fee.feeMicros, rates.tier1Bps),
      rate: rates.tier1Bps,
    });
  }
  if (upline.tier2 !== null) {
    out.push({
      userId: upline.tier2,
      type: 'referral_tier2',
      amountMicros: bpsShare(fee.feeMicros, rates.tier2Bps),
      rate: rates.tier2Bps,
    });
  }
  return out.filter((a) => a.amountMicros > 0n);
}

/** The amount a reward of `type` at `rate` should be for a fee (the reconciliation's check of a stored row). */
export function amountAt(type: RewardType, feeMicros: bigint, rate: number): bigint {
  return type === 'points' ? pointsFor(feeMicros, rate) : bpsShare(feeMicros, rate);
}

/** The fee a ledger movement of kind `trading_fee` took from the user (what left available and held). */
export function feeOfEntry(availableDelta: bigint, heldDelta: bigint): bigint {
  return -(availableDelta + heldDelta);
}
