import { ByteLru, utf8Bytes } from './byte-lru';

/**
 * A byte budget several memos share ({@link memoBudget}): entries of all of them, weighed in
 * bytes, least recently used first out whichever memo holds them.
 */
export type MemoBudget = ByteLru<object, () => void>;

/** A byte budget of `maxBytes` for memos to share (its `bytes` is what they hold together). */
export function memoBudget(maxBytes: number): MemoBudget {
  return new ByteLru<object, () => void>(maxBytes, { onEvict: (_entry, drop) => drop() });
}

export interface ReadMemoOptions {
  /** Entries kept at most by this memo (the oldest go first); default 5,000. */
  maxEntries?: number;
  /**
   * A byte budget this memo shares with others: each entry weighs its key plus `weigh` of what it
   * resolved to (a pending read: its key alone), and the least recently read go first. An entry
   * heavier than the whole budget is returned to its caller but not kept.
   */
  budget?: MemoBudget;
  /** The bytes a resolved read weighs (required with `budget`). */
  weigh?: (value: unknown) => number;
  now?: () => number;
}

interface MemoEntry {
  key: string;
  expires: number;
  value: Promise<unknown>;
}

/**
 * A per-process read-through memo for hot, rarely changing reads (the catalog).
 * Unlike {@link Cache} it keeps live objects (no JSON round trip, so Dates stay
 * Dates): callers must treat what it returns as immutable. `invalidate()` drops
 * everything at once; other processes are told through the pub/sub, and the
 * TTL bounds staleness should such a message be missed. Bounded by entries and,
 * with a {@link MemoBudget}, by the bytes its entries weigh.
 */
export class ReadMemo {
  private entries = new Map<string, MemoEntry>();
  private generation = 0;
  /** What each kept read resolved to (for {@link peek}). */
  private readonly settled = new WeakMap<Promise<unknown>, unknown>();
  private readonly maxEntries: number;
  private readonly budget?: MemoBudget;
  private readonly weigh?: (value: unknown) => number;
  private readonly now: () => number;

  constructor(
    readonly ttlMs: number,
    options: ReadMemoOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 5000;
    this.budget = options.budget;
    this.weigh = options.weigh;
    this.now = options.now ?? Date.now;
    if (this.budget && !this.weigh) throw new Error('ReadMemo: a byte budget needs a weigh function');
  }

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const t = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > t) {
      this.budget?.get(hit);
      return hit.value as Promise<T>;
    }
    if (hit) this.forget(hit);
    const generation = this.generation;
    const value = load();
    const entry: MemoEntry = { key, expires: t + this.ttlMs, value };
    this.entries.set(key, entry);
    const drop = () => this.forget(entry);
    const keyBytes = this.budget ? utf8Bytes(key) : 0;
    this.budget?.set(entry, drop, keyBytes);
    if (this.entries.size > this.maxEntries) this.forget(this.entries.values().next().value!);
    // A failed load is forgotten; so is one that raced an invalidation, and one heavier than the budget.
    value.then(
      (resolved) => {
        if (generation !== this.generation || this.entries.get(key) !== entry) return this.forget(entry);
        this.settled.set(value, resolved);
        if (this.budget && !this.budget.set(entry, drop, keyBytes + this.weigh!(resolved))) this.forget(entry);
      },
      () => this.forget(entry),
    );
    return value;
  }

  /**
   * The value `key` holds when its read has resolved and is still kept (not expired, not
   * invalidated, not evicted), made the most recently used; otherwise undefined. Synchronous:
   * for a caller that must know at once (an answer written before Express).
   */
  peek<T>(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined || hit.expires <= this.now() || !this.settled.has(hit.value)) return undefined;
    this.budget?.get(hit);
    return this.settled.get(hit.value) as T;
  }

  /**
   * Weighs again what `key` holds, once resolved (its value grew: an answer serialized once more).
   * An entry now heavier than the whole budget is dropped.
   */
  reweigh(key: string): void {
    const hit = this.entries.get(key);
    if (!this.budget || hit === undefined || !this.settled.has(hit.value)) return;
    const bytes = utf8Bytes(key) + this.weigh!(this.settled.get(hit.value));
    if (!this.budget.set(hit, () => this.forget(hit), bytes)) this.forget(hit);
  }

  invalidate(): void {
    this.generation += 1;
    if (this.budget) for (const entry of this.entries.values()) this.budget.delete(entry);
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Drops `entry` if it is still the one under its key, and its weight from the budget. */
  private forget(entry: MemoEntry): void {
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    this.budget?.delete(entry);
  }
}
