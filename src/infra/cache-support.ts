import type { CacheWrapResult } from './cache.types';
import type { InfraErrorHandler } from './infra.types';
import { RedisUnavailableError } from './redis-guard';

/**
 * Pieces both cache implementations share, so TTL rules, serialisation and
 * read-through behave identically whichever backend is configured.
 */

/** Rejects TTLs Redis would refuse and rounds up so a sub-millisecond TTL still caches. */
export function normalizeTtlMs(ttlMs: number): number {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new RangeError(`cache TTL must be a positive number of milliseconds, got ${ttlMs}`);
  }
  return Math.ceil(ttlMs);
}

/** JSON-encodes a cache value; `undefined` is refused because it would read back as a miss. */
export function encodeCacheValue(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) {
    throw new TypeError('cache values must be JSON-serialisable and not undefined');
  }
  return json;
}

/** The storage primitives {@link readThrough} is built on. */
export interface ReadThroughStore {
  get<T>(key: string): Promise<T | undefined>;
  set<T>(key: string, value: T, ttlMs: number): Promise<void>;
}

/**
 * Single-flight read-through: one in-flight load per key per instance. The
 * in-flight entry is removed when the load settles, so a rejected load is
 * retried by the next caller instead of being cached. A store that cannot be
 * read or written is a miss (the write skipped), reported through `onError`
 * unless Redis is unavailable (its outage is reported once, by the guard).
 */
export class SingleFlight {
  private readonly inFlight = new Map<string, Promise<CacheWrapResult<unknown>>>();

  constructor(
    private readonly store: ReadThroughStore,
    private readonly onError: InfraErrorHandler,
  ) {}

  /** Implements `Cache.wrap` on top of the store's get/set. */
  async wrap<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<CacheWrapResult<T>> {
    const ttl = normalizeTtlMs(ttlMs);
    const pending = this.inFlight.get(key);
    if (pending) {
      const shared = (await pending) as CacheWrapResult<T>;
      // Joiners did not read the cache themselves; reporting `hit` from the
      // leader's read keeps hit-ratio metrics honest either way.
      return { value: shared.value, hit: shared.hit };
    }
    const flight = this.readThrough(key, ttl, load);
    this.inFlight.set(key, flight);
    try {
      return await flight;
    } finally {
      if (this.inFlight.get(key) === flight) this.inFlight.delete(key);
    }
  }

  private async readThrough<T>(key: string, ttl: number, load: () => Promise<T>): Promise<CacheWrapResult<T>> {
    let cached: T | undefined;
    try {
      cached = await this.store.get<T>(key);
    } catch (error) {
      this.report(error);
    }
    if (cached !== undefined) return { value: cached, hit: true };
    const value = await load();
    if (value !== undefined) {
      try {
        await this.store.set(key, value, ttl);
      } catch (error) {
        this.report(error);
      }
    }
    return { value, hit: false };
  }

  private report(error: unknown): void {
    if (!(error instanceof RedisUnavailableError)) this.onError(asError(error), 'cache');
  }
}

/** Normalises thrown values so error callbacks always get an `Error`. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
