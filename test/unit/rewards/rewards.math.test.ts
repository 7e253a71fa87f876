import {
  accrualsFor,
  amountAt,
  bpsShare,
  feeOfEntry,
  pointsFor,
  uplineAt,
  type RewardRates,
} from '../../../src/modules/rewards/rewards.math';

const RATES: RewardRates = { cashbackBps: 1000, tier1Bps: 2000, tier2Bps: 500, pointsPerUsd: 100 };
const T = new Date('2026-03-01T12:00:00.000Z');
const before = new Date(T.getTime() - 1);
const fee = (feeMicros: bigint) => ({ key: 'fee:o1:1', userId: 'payer', feeMicros, at: T });

describe('reward shares (hand-computed)', () => {
  it.each([
    // fee micro-units, bps, share: floor(fee × bps / 10 000)
    [1_234_567n, 1000, 123_456n], // 123 456.7 → 123 456
    [1_234_567n, 2000, 246_913n], // 246 913.4
    [1_234_567n, 500, 61_728n], // 61 728.35
    [10_000_000n, 1000, 1_000_000n], // $10 fee, 10 % → $1 exactly
    [9n, 1000, 0n], // 0.9 micro-units round down to nothing
    [10n, 1000, 1n],
    [1_234_567n, 0, 0n],
    [1_234_567n, 10_000, 1_234_567n],
  ])('bpsShare(%s, %s) = %s', (micros, bps, expected) => {
    expect(bpsShare(micros, bps)).toBe(expected);
  });

  it('points are exact micro-points: $1.234567 of fees at 100 points per USD is 123.4567 points', () => {
    expect(pointsFor(1_234_567n, 100)).toBe(123_456_700n);
    expect(pointsFor(1n, 1)).toBe(1n);
    expect(amountAt('points', 1_234_567n, 100)).toBe(123_456_700n);
    expect(amountAt('referral_tier2', 1_234_567n, 500)).toBe(61_728n);
  });

  it('a fee is what the ledger movement took from available and held', () => {
    expect(feeOfEntry(-250_000n, 0n)).toBe(250_000n);
    expect(feeOfEntry(0n, -40n)).toBe(40n);
    expect(feeOfEntry(-10n, -5n)).toBe(15n);
  });
});

describe('uplineAt: a referral earns on fees charged strictly after it', () => {
  const payer = { referrerId: 'b', referredAt: before };
  const parent = { referrerId: 'a', referredAt: before };

  it('both tiers when both referrals precede the fee', () => {
    expect(uplineAt(payer, parent, T)).toEqual({ tier1: 'b', tier2: 'a' });
  });

  it('no tier 2 when the referrer was referred at or after the fee', () => {
    expect(uplineAt(payer, { ...parent, referredAt: T }, T)).toEqual({ tier1: 'b', tier2: null });
    expect(uplineAt(payer, { ...parent, referredAt: new Date(T.getTime() + 1) }, T)).toEqual({
      tier1: 'b',
      tier2: null,
    });
  });

  it('nobody when the payer was referred at or after the fee, or never', () => {
    expect(uplineAt({ ...payer, referredAt: T }, parent, T)).toEqual({ tier1: null, tier2: null });
    expect(uplineAt(null, parent, T)).toEqual({ tier1: null, tier2: null });
    expect(uplineAt(payer, null, T)).toEqual({ tier1: 'b', tier2: null });
  });
});

describe('accrualsFor', () => {
  it('a $1.234567 fee of a user two levels down: cashback, points, tier 1 and tier 2', () => {
    expect(accrualsFor(fee(1_234_567n), { tier1: 'b', tier2: 'a' }, RATES)).toEqual([
      { userId: 'payer', type: 'cashback', amountMicros: 123_456n, rate: 1000 },
      { userId: 'payer', type: 'points', amountMicros: 123_456_700n, rate: 100 },
      { userId: 'b', type: 'referral_tier1', amountMicros: 246_913n, rate: 2000 },
      { userId: 'a', type: 'referral_tier2', amountMicros: 61_728n, rate: 500 },
    ]);
  });

  it('drops shares that round to zero and tiers without a referrer', () => {
    // 15 micro-units: cashback 1.5 → 1, tier 1 3, tier 2 0.75 → 0 (dropped), points 1500.
    expect(accrualsFor(fee(15n), { tier1: 'b', tier2: 'a' }, RATES)).toEqual([
      { userId: 'payer', type: 'cashback', amountMicros: 1n, rate: 1000 },
      { userId: 'payer', type: 'points', amountMicros: 1500n, rate: 100 },
      { userId: 'b', type: 'referral_tier1', amountMicros: 3n, rate: 2000 },
    ]);
    expect(accrualsFor(fee(1_000_000n), { tier1: null, tier2: null }, { ...RATES, pointsPerUsd: 0 })).toEqual([
      { userId: 'payer', type: 'cashback', amountMicros: 100_000n, rate: 1000 },
    ]);
  });

  it('a fee of zero or less earns nothing', () => {
    expect(accrualsFor(fee(0n), { tier1: 'b', tier2: 'a' }, RATES)).toEqual([]);
    expect(accrualsFor(fee(-5n), { tier1: 'b', tier2: 'a' }, RATES)).toEqual([]);
  });
});
