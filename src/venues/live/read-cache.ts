import type { VenueBudget } from '../venue-client';

/** Answers kept at most at once; past it the oldest go first (a second's worth of distinct reads is far fewer). */
export const READ_CACHE_MAX_ENTRIES = 10_000;

/**
 * A live venue's reads shared by every caller of the process for `ttlMs` after they arrive: books,
 * trades pages, holders and price history, keyed by what was asked (market and parameters). The
 * GraphQL fields, the REST routes built on them, routing, cost preview and portfolio marks all
 * read through it, so a hundred asks for one book within the window cost the venue one call.
 *
 * Concurrent asks for one key share one call, per budget: an order's own read never waits behind
 * a read queued on the read budget (it makes its own call on the order budget), while an answer
 * from either budget serves both. A failed call is not kept. `ttlMs` 0 keeps nothing and shares
 * nothing (every ask is a call). Kept answers are shared objects: callers treat them as immutable.
 */
export class VenueReadCache {
  private readonly kept = new Map<string, { value: unknown; expires: number }>();
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries = READ_CACHE_MAX_ENTRIES,
    /** Wall-clock time: the window is real time whatever clock the domain runs on. */
    private readonly now: () => number = Date.now,
  ) {}

  /** The kept answer for `key`, else the call in flight on `budget`, else `load()` (kept once it resolves). */
  get<T>(key: string, budget: VenueBudget, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const hit = this.kept.get(key);
    if (hit) {
      if (hit.expires > this.now()) return Promise.resolve(hit.value as T);
      this.kept.delete(key);
    }
    const flightKey = `${budget}\u0000${key}`;
    const pending = this.inFlight.get(flightKey);
    if (pending) return pending as Promise<T>;
    const call = load().then((value) => {
      this.keep(key, value);
      return value;
    });
    this.inFlight.set(flightKey, call);
    const forget = () => this.inFlight.delete(flightKey);
    call.then(forget, forget);
    return call;
  }

  /** Answers kept now, expired ones not yet dropped included. */
  get size(): number {
    return this.kept.size;
  }

  private keep(key: string, value: unknown): void {
    const now = this.now();
    // Insertion order is expiry order (one ttl): expired answers leave from the front.
    for (const [k, e] of this.kept) {
      if (e.expires > now) break;
      this.kept.delete(k);
    }
    this.kept.delete(key);
    this.kept.set(key, { value, expires: now + this.ttlMs });
    while (this.kept.size > this.maxEntries) this.kept.delete(this.kept.keys().next().value!);
  }
}
