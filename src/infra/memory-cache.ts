import type { Cache, CacheWrapResult } from './cache.types';
import { encodeCacheValue, normalizeTtlMs, SingleFlight } from './cache-support';
import type { InfraErrorHandler } from './infra.types';

/** Options for {@link MemoryCache}. */
export interface MemoryCacheOptions {
  /** Entry cap; the least recently used entry is evicted beyond it. */
  maxEntries: number;
  now: () => number;
  onError: InfraErrorHandler;
  /** How often expired entries are swept (they are also dropped lazily on read). */
  sweepIntervalMs?: number;
}

interface Entry {
  /** Stored as JSON so callers get the same copy semantics as with Redis. */
  json: string;
  expiresAt: number;
}

const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

/**
 * In-process cache: a `Map` used as an LRU (insertion order = recency) with
 * per-entry expiry. Values are stored as JSON so that code tested against the
 * memory backend does not break when it meets Redis (no shared references, no
 * surviving `Date`s or class instances).
 */
export class MemoryCache implements Cache {
  private readonly entries = new Map<string, Entry>();
  private readonly flights: SingleFlight;
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(private readonly options: MemoryCacheOptions) {
    if (!Number.isSafeInteger(options.maxEntries) || options.maxEntries < 1) {
      throw new RangeError(`memory cache maxEntries must be an integer >= 1, got ${options.maxEntries}`);
    }
    this.flights = new SingleFlight(this, options.onError);
    this.sweepTimer = setInterval(() => this.sweep(), options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
    // The sweep is housekeeping only; it must never keep the process alive.
    this.sweepTimer.unref();
  }

  /** Entries currently held, including expired ones not yet swept. */
  get size(): number {
    return this.entries.size;
  }

  async get<T>(key: string): Promise<T | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.options.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Re-insert to move the key to the most-recently-used end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return JSON.parse(entry.json) as T;
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    const ttl = normalizeTtlMs(ttlMs);
    const json = encodeCacheValue(value);
    this.entries.delete(key);
    this.entries.set(key, { json, expiresAt: this.options.now() + ttl });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  async del(key: string): Promise<void> {
    this.entries.delete(key);
  }

  wrap<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<CacheWrapResult<T>> {
    return this.flights.wrap(key, ttlMs, load);
  }

  /** Drops expired entries now (also runs on a timer). */
  sweep(): void {
    const now = this.options.now();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) this.entries.delete(key);
    }
  }

  /** Stops the sweep timer and empties the cache. */
  close(): void {
    clearInterval(this.sweepTimer);
    this.entries.clear();
  }
}
