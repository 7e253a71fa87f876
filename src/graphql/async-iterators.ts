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
