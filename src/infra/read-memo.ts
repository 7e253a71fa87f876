/**
 * A per-process read-through memo for hot, rarely changing reads (the catalog).
 * Unlike {@link Cache} it keeps live objects (no JSON round trip, so Dates stay
 * Dates): callers must treat what it returns as immutable. `invalidate()` drops
 * everything at once; other processes are told through the pub/sub, and the
 * TTL bounds staleness should such a message be missed.
 */
export class ReadMemo {
  private entries = new Map<string, { expires: number; value: Promise<unknown> }>();
  private generation = 0;
  /** What each kept read resolved to (for {@link holds}). */
  private readonly settled = new WeakMap<Promise<unknown>, unknown>();

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries = 5000,
    private readonly now: () => number = Date.now,
  ) {}

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const t = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > t) return hit.value as Promise<T>;
    const generation = this.generation;
    const value = load();
    this.entries.set(key, { expires: t + this.ttlMs, value });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    // A failed load is forgotten; so is one that raced an invalidation.
    value.then(
      (resolved) => {
        if (generation !== this.generation) this.entries.delete(key);
        else this.settled.set(value, resolved);
      },
      () => {
        if (this.entries.get(key)?.value === value) this.entries.delete(key);
      },
    );
    return value;
  }

  /**
   * Whether `key` still holds the read that produced `value` (not expired, not
   * invalidated, not evicted): a synchronous check for one who kept `value`.
   */
  holds(key: string, value: unknown): boolean {
    const hit = this.entries.get(key);
    return hit !== undefined && hit.expires > this.now() && this.settled.get(hit.value) === value;
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
