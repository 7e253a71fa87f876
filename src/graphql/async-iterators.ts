/**
 * Filters and maps an async iterator while forwarding `return()`, so a
 * subscription that ends (client gone) unsubscribes from the pub/sub below.
 */
export function mapFilter<T, U>(
  source: AsyncIterableIterator<T>,
  keep: (value: T) => boolean,
  map: (value: T) => U,
): AsyncIterableIterator<U> {
  const it: AsyncIterableIterator<U> = {
    async next(): Promise<IteratorResult<U>> {
      for (;;) {
        const r = await source.next();
        if (r.done) return { done: true, value: undefined };
        if (keep(r.value)) return { done: false, value: map(r.value) };
      }
    },
    async return(): Promise<IteratorResult<U>> {
      await source.return?.();
      return { done: true, value: undefined };
    },
    async throw(err?: unknown): Promise<IteratorResult<U>> {
      await source.return?.();
      throw err;
    },
    [Symbol.asyncIterator]() {
      return it;
    },
  };
  return it;
}

/**
 * Yields `replay` first, then the live iterator, forwarding `return()` to it.
 * The caller subscribes to `live` BEFORE reading the replay, so nothing falls
 * between the two; `keepLive` drops live values the replay already covered.
 */
export function withReplay<T>(
  replay: readonly T[],
  live: AsyncIterableIterator<T>,
  keepLive: (value: T) => boolean,
): AsyncIterableIterator<T> {
  let i = 0;
  const rest = mapFilter(live, keepLive, (v) => v);
  const it: AsyncIterableIterator<T> = {
    next: () => (i < replay.length ? Promise.resolve({ done: false, value: replay[i++]! }) : rest.next()),
    return: () => rest.return!(),
    throw: (err?: unknown) => rest.throw!(err),
    [Symbol.asyncIterator]() {
      return it;
    },
  };
  return it;
}
