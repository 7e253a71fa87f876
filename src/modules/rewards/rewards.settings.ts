import { defineSettings, setting } from '../../settings';

/** Rewards: shares of each trading fee, points, holding and settling, and the claim rate limit. */
export const rewardsSettings = defineSettings({
  name: 'rewards',
  title: 'Rewards',
  variables: {
    REWARDS_CASHBACK_BPS: setting.integer(0, 10_000, 1_000, 'share of each trading fee for the payer, in basis points'),
    REWARDS_REFERRAL_TIER1_BPS: setting.integer(0, 10_000, 2_000, 'share for their referrer'),
    REWARDS_REFERRAL_TIER2_BPS: setting.integer(
      0,
      10_000,
      500,
      "share for the referrer's referrer (the three together at most 10000)",
    ),
    REWARDS_POINTS_PER_USD: setting.integer(0, 1_000_000, 100, 'points per USD of fees'),
    REWARDS_HOLD_SECONDS: setting.integer(0, 31_536_000, 86_400, 'how long a reward is held before it can be claimed'),
    REWARDS_SETTLE_MS: setting.integer(
      0,
      3_600_000,
      60_000,
      'how often held rewards are released in the background (0 = only on reads)',
    ),
    REWARDS_CLAIM_RATE_LIMIT: setting.integer(
      1,
      1_000_000,
      5,
      'requests per minute per user on `/api/rewards/claim` (429 beyond)',
    ),
  },
  check(v, ctx) {
    if (v.REWARDS_CASHBACK_BPS + v.REWARDS_REFERRAL_TIER1_BPS + v.REWARDS_REFERRAL_TIER2_BPS > 10_000) {
      ctx.problem(
        'REWARDS_CASHBACK_BPS: with REWARDS_REFERRAL_TIER1_BPS and REWARDS_REFERRAL_TIER2_BPS must not exceed ' +
          '10000 (the whole fee)',
      );
    }
  },
  map: (v) => ({
    /**
     * Rewards: shares of each trading fee in basis points (cashback to the payer, tier 1 and tier 2 to
     * the payer's referrers), points per USD of fee, how long a reward is held before it can be
     * claimed, and how often held rewards are released in the background (ms; 0 = only on reads).
     */
    rewards: {
      cashbackBps: v.REWARDS_CASHBACK_BPS,
      tier1Bps: v.REWARDS_REFERRAL_TIER1_BPS,
      tier2Bps: v.REWARDS_REFERRAL_TIER2_BPS,
      pointsPerUsd: v.REWARDS_POINTS_PER_USD,
      holdSeconds: v.REWARDS_HOLD_SECONDS,
      settleMs: v.REWARDS_SETTLE_MS,
    },
    limits: { rewardsClaimPerMinute: v.REWARDS_CLAIM_RATE_LIMIT },
  }),
});
