/** Kinds of reward. Cashback and both referral tiers are USD; points are a score and are never claimed. */
export const REWARD_TYPES = ['cashback', 'referral_tier1', 'referral_tier2', 'points'] as const;
export type RewardType = (typeof REWARD_TYPES)[number];

/** The types a claim pays out (USD). */
export const CLAIMABLE_TYPES = [
  'cashback',
  'referral_tier1',
  'referral_tier2',
] as const satisfies readonly RewardType[];

export const REWARD_STATES = ['pending', 'available', 'claimed'] as const;
export type RewardState = (typeof REWARD_STATES)[number];

export const REWARD_EVENTS = ['accrued', 'available', 'claimed'] as const;
export type RewardEventKind = (typeof REWARD_EVENTS)[number];

/** The balance-ledger kind a claim is credited with. */
export const REWARD_CLAIM_KIND = 'reward_claim';

/** Input bounds of the rewards surface (documented in the README). */
export const REWARDS_LIMITS = {
  limit: { min: 1, max: 200, default: 50 },
  offset: { min: 0, max: 100_000 },
  /** Referral codes: this many characters of {@link REFERRAL_ALPHABET}; input may add dashes and spaces. */
  code: { length: 8, inputMax: 32 },
  /** Admin windows (reconciliation, export, replay): at most this long; default the last `defaultDays`. */
  window: { maxDays: 366, defaultDays: 30 },
  /** Rewards one CSV export may hold; a wider window is a 400. */
  exportMaxRows: 100_000,
  /** Discrepancies listed by a reconciliation (all are counted). */
  discrepanciesListed: 100,
  /** Fees processed per transaction by a replay. */
  replayBatch: 500,
  /** Referral chains are walked at most this deep when checking for a loop. */
  chainDepth: 10_000,
} as const;

/** Unambiguous upper-case letters and digits (no 0/O, 1/I/L, U). */
export const REFERRAL_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ23456789';
