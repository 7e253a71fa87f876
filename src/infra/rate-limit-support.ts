import type { RateLimitResult } from './rate-limiter.types';

/**
 * Argument checks and result arithmetic shared by both limiters, so the Redis
 * script only has to return raw counts and both backends answer identically.
 */

/** Validated limiter arguments (window rounded up to whole milliseconds). */
export interface RateLimitArgs {
  limit: number;
  windowMs: number;
  /** Hits one request counts as (1 unless given). */
  weight: number;
}

/** Throws `RangeError` for arguments no window could honour. */
export function normalizeRateLimitArgs(key: string, limit: number, windowMs: number, weight = 1): RateLimitArgs {
  if (typeof key !== 'string' || key.length === 0) {
    throw new RangeError('rate limit key must be a non-empty string');
  }
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new RangeError(`rate limit must be an integer >= 1, got ${limit}`);
  }
  if (!Number.isFinite(windowMs) || windowMs <= 0) {
    throw new RangeError(`rate limit window must be a positive number of milliseconds, got ${windowMs}`);
  }
  if (!Number.isSafeInteger(weight) || weight < 1 || weight > limit) {
    throw new RangeError(`rate limit weight must be an integer from 1 to the limit, got ${weight}`);
  }
  return { limit, windowMs: Math.ceil(windowMs), weight };
}

/** The window state a limiter observed, after any hit it counted. */
export interface WindowSnapshot {
  allowed: boolean;
  /** Hits counted in the window. */
  count: number;
  /** Timestamp of the oldest counted hit, if any. */
  oldest: number | undefined;
  /**
   * Timestamp of the hit whose expiry frees room for the request's weight (for
   * a weight of 1, the one that brings the count below `limit`: the oldest one
   * unless the limit was lowered while the window was full).
   */
  freeingHit: number | undefined;
  /** The clock reading the decision was made at. */
  now: number;
}

/** Turns a window snapshot into the public result shape. */
export function toRateLimitResult(snapshot: WindowSnapshot, { limit, windowMs }: RateLimitArgs): RateLimitResult {
  const { allowed, count, oldest, freeingHit, now } = snapshot;
  const resetAt = count > 0 && oldest !== undefined ? oldest + windowMs : now + windowMs;
  const slotFreesAt = freeingHit !== undefined ? freeingHit + windowMs : resetAt;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt,
    retryAfterMs: allowed ? 0 : Math.max(1, slotFreesAt - now),
  };
}
