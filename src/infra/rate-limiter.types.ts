/**
 * Sliding-log rate limiter contract shared by the Redis and in-process
 * implementations. A hit counts while `now - hitTime < windowMs`.
 */

/** Outcome of a {@link RateLimiter.hit} or {@link RateLimiter.peek}. */
export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  /** Hits still available in the window after this call (never negative). */
  remaining: number;
  /** Unix ms when the oldest counted hit leaves the window; `now + windowMs` when nothing is counted. */
  resetAt: number;
  /** 0 when allowed; otherwise how long until a slot frees. */
  retryAfterMs: number;
}

/** Exact rolling-window limiter keyed by caller-chosen strings. */
export interface RateLimiter {
  /**
   * Counts one request for `key` if fewer than `limit` hits are in the rolling
   * window, atomically. Refused hits are not counted. `limit` must be an
   * integer ≥ 1 and `windowMs` a positive number (`RangeError` otherwise).
   * `weight` (default 1, an integer from 1 to `limit`) counts the request as
   * that many hits, all or none: it passes when `weight` hits are free.
   */
  hit(key: string, limit: number, windowMs: number, weight?: number): Promise<RateLimitResult>;
  /**
   * The state a `hit` would see, without consuming quota: `allowed` says
   * whether a hit now would pass and `remaining` is the quota currently free.
   */
  peek(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
}
