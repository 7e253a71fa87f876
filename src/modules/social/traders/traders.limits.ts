import type { Venue } from '../../../venues/venue.models';

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

/** Paging of the leaderboard and of a trader's trades. */
export const LEADERBOARD_LIMITS = {
  limit: { min: 1, max: 200, default: 50 },
  offset: { min: 0, max: 100_000 },
} as const;

/** The figures the leaderboard ranks by. */
export const LEADERBOARD_SORTS = ['total_volume', 'total_pnl', 'win_count', 'total_trades'] as const;

export type LeaderboardSort = (typeof LEADERBOARD_SORTS)[number];
