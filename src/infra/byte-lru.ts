/**
 * A least-recently-used map bounded by the bytes of what it holds (and optionally by entries).
 * Each entry is put with its weight in bytes, as its owner measures it (a cached answer: its
 * serialized body and its key); reading an entry with {@link get} makes it the most recently used,
 * and putting one that takes the total over the bound evicts the least recently used until it
 * fits. An entry heavier than the whole bound is not kept at all (its owner serves it, uncached).
 *
 * Written here rather than taken from a package: the caches that use it need a synchronous,
 * allocation-free O(1) core over a `Map` (insertion order is the recency order), entries whose
 * weight is known only once a pending read resolves ({@link set} again re-weighs), and an eviction
 * callback that several caches sharing one budget use to forget their own index of the entry.
 */
export class ByteLru<K, V> {
  private readonly items = new Map<K, { value: V; bytes: number }>();
  private held = 0;

  constructor(
    /** The bytes held at most. */
    readonly maxBytes: number,
    private readonly options: {
      /** Entries held at most (none by default). */
      maxEntries?: number;
      /** Told of each entry evicted to make room (not of those deleted or replaced by their owner). */
      onEvict?: (key: K, value: V) => void;
    } = {},
  ) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
      throw new RangeError(`ByteLru maxBytes must be an integer >= 1, got ${maxBytes}`);
    }
  }

  /** The entry under `key`, made the most recently used. */
  get(key: K): V | undefined {
    const item = this.items.get(key);
    if (item === undefined) return undefined;
    this.items.delete(key);
    this.items.set(key, item);
    return item.value;
  }

  /** The entry under `key`, its recency unchanged. */
  peek(key: K): V | undefined {
    return this.items.get(key)?.value;
  }

  has(key: K): boolean {
    return this.items.has(key);
  }

  /**
   * Puts `value` under `key` weighing `bytes` (replacing and re-weighing an entry already there) as
   * the most recently used, then evicts the least recently used others until the bounds hold. An
   * entry heavier than {@link maxBytes} is not kept (one already under `key` is removed): false.
   */
  set(key: K, value: V, bytes: number): boolean {
    this.delete(key);
    const weight = Math.max(0, Math.ceil(bytes));
    if (weight > this.maxBytes) return false;
    this.items.set(key, { value, bytes: weight });
    this.held += weight;
    const maxEntries = this.options.maxEntries ?? Infinity;
    while (this.held > this.maxBytes || this.items.size > maxEntries) {
      const [oldKey, old] = this.items.entries().next().value!;
      if (oldKey === key) break; // only the new entry is left (cannot happen: it fits)
      this.items.delete(oldKey);
      this.held -= old.bytes;
      this.options.onEvict?.(oldKey, old.value);
    }
    return true;
  }

  /** Removes the entry under `key` (no eviction callback): whether there was one. */
  delete(key: K): boolean {
    const item = this.items.get(key);
    if (item === undefined) return false;
    this.items.delete(key);
    this.held -= item.bytes;
    return true;
  }

  /** Removes every entry (no eviction callback). */
  clear(): void {
    this.items.clear();
    this.held = 0;
  }

  /** The bytes held: the sum of the weights of the entries. */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.items.size;
  }

  keys(): IterableIterator<K> {
    return this.items.keys();
  }
}

/** The weight of a string key or body in bytes (UTF-8). */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
