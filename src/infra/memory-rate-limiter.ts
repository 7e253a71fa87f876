import type { RateLimiter, RateLimitResult } from './rate-limiter.types';
import { normalizeRateLimitArgs, toRateLimitResult, type RateLimitArgs } from './rate-limit-support';

/** Options for {@link MemoryRateLimiter}. */
export interface MemoryRateLimiterOptions {
  now: () => number;
  /** How often keys whose every hit has left the window are forgotten. */
  cleanupIntervalMs?: number;
}

interface HitLog {
  /** Hit timestamps, ascending. */
  hits: number[];
  /** Window of the latest call, used to decide when the key is idle. */
  windowMs: number;
}

const DEFAULT_CLEANUP_INTERVAL_MS = 60_000;

/**
 * In-process sliding-log limiter with the same semantics as the Redis one.
 * Node runs each call to completion, so check-and-add is atomic without locks.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, HitLog>();
  private readonly cleanupTimer: NodeJS.Timeout;

  constructor(private readonly options: MemoryRateLimiterOptions) {
    this.cleanupTimer = setInterval(() => this.cleanup(), options.cleanupIntervalMs ?? DEFAULT_CLEANUP_INTERVAL_MS);
    // Housekeeping must not keep the process alive.
    this.cleanupTimer.unref();
  }

  /** Keys currently tracked (idle ones disappear at the next cleanup). */
  get trackedKeys(): number {
    return this.logs.size;
  }

  async hit(key: string, limit: number, windowMs: number, weight = 1): Promise<RateLimitResult> {
    return this.decide(key, normalizeRateLimitArgs(key, limit, windowMs, weight), true);
  }

  async peek(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    return this.decide(key, normalizeRateLimitArgs(key, limit, windowMs), false);
  }

  /** Forgets keys with no hit left in their window (also runs on a timer). */
  cleanup(): void {
    const now = this.options.now();
    for (const [key, log] of this.logs) {
      pruneExpired(log.hits, now - log.windowMs);
      if (log.hits.length === 0) this.logs.delete(key);
    }
  }

  /** Stops the cleanup timer and forgets every key. */
  close(): void {
    clearInterval(this.cleanupTimer);
    this.logs.clear();
  }

  private decide(key: string, args: RateLimitArgs, consume: boolean): RateLimitResult {
    const now = this.options.now();
    let log = this.logs.get(key);
    if (log) {
      log.windowMs = args.windowMs;
      pruneExpired(log.hits, now - args.windowMs);
    }
    const countBefore = log?.hits.length ?? 0;
    const allowed = countBefore + args.weight <= args.limit;
    if (consume && allowed) {
      if (!log) {
        log = { hits: [], windowMs: args.windowMs };
        this.logs.set(key, log);
      }
      for (let i = 0; i < args.weight; i += 1) insertSorted(log.hits, now);
    }
    const hits = log?.hits ?? [];
    if (log && hits.length === 0) this.logs.delete(key);
    const count = hits.length;
    return toRateLimitResult(
      {
        allowed,
        count,
        oldest: hits[0],
        freeingHit: count + args.weight > args.limit ? hits[count + args.weight - args.limit - 1] : undefined,
        now,
      },
      args,
    );
  }
}

/** Removes hits at or before `cutoff` (a hit counts while `now - hit < window`). */
function pruneExpired(hits: number[], cutoff: number): void {
  let expired = 0;
  while (expired < hits.length && hits[expired] <= cutoff) expired += 1;
  if (expired > 0) hits.splice(0, expired);
}

/**
 * Appends keeping ascending order; the clock is usually monotonic so this is
 * O(1), but an injected or adjusted clock may step backwards.
 */
function insertSorted(hits: number[], at: number): void {
  let index = hits.length;
  while (index > 0 && hits[index - 1] > at) index -= 1;
  hits.splice(index, 0, at);
}
