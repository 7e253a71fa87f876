import type { Venue } from '../../venues/venue.types';

/** Bounds of the follow-trade overlay (`GET /api/events/{eventId}/follow-trades`). */
export const FOLLOW_TRADES_LIMITS = {
  /** Traders kept per bubble, ranked by trade size. */
  topN: { min: 1, max: 20, default: 5 },
  /**
   * Most followed-trader trades one request may group; beyond it the request
   * is a 400 on `from` (narrow the range or use a longer interval) rather than
   * an unbounded read.
   */
  maxTrades: 50_000,
} as const;

/**
 * Venues whose public trade feed names the trader. venue_b's does not, so its
 * markets never have follow-trade bubbles.
 */
export const TRADER_IDENTITY_VENUES: readonly Venue[] = ['venue_a'];

/** Bounds of `GET /api/leaderboard/me`. */
export const LEADERBOARD_ME_LIMITS = {
  /** Rows listed above and below the caller's rank. */
  neighbours: { min: 0, max: 10, default: 2 },
} as const;

/** Bounds of the public user stats. */
export const USER_STATS_LIMITS = { userId: { max: 200 } } as const;

/** Rolling windows of the product metrics, in days. */
export const PRODUCT_METRIC_WINDOWS_DAYS = { short: 7, long: 30 } as const;
