import type { Embedder } from './embedder.types';

/**
 * A search query as it is embedded and cached: Unicode NFKC (compatibility forms folded, so
 * full-width letters and ligatures match their plain spelling), lower case, runs of white space as
 * one space, trimmed. Spellings that differ only in these ways share one vector.
 */
export function normalizeQuery(q: string): string {
  return q.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/**
 * Query vectors of the search, per process: an LRU of at most `maxEntries` vectors keyed by the
 * embedder (provider and model) and the normalised query, so a repeated query costs no provider
 * call; concurrent asks for one key share one call. Failures are not kept: the next ask calls
 * again. `maxEntries` 0 keeps nothing (only concurrent asks share a call). Hand-written over a `Map`
 * (insertion order is recency), as the infra's memory cache is: the project carries no LRU
 * package, and this needs no expiry.
 */
export class QueryEmbeddings {
  private readonly vectors = new Map<string, readonly number[]>();
  private readonly inFlight = new Map<string, Promise<readonly number[]>>();

  constructor(
    private readonly embedder: Embedder,
    private readonly maxEntries: number,
  ) {}

  /** Vectors currently kept. */
  get size(): number {
    return this.vectors.size;
  }

  /** The vector of `query` (embedded as {@link normalizeQuery} gives it). Treat it as immutable. */
  embed(query: string): Promise<readonly number[]> {
    const text = normalizeQuery(query);
    const key = `${this.embedder.provider}\u0000${this.embedder.model}\u0000${text}`;
    const kept = this.vectors.get(key);
    if (kept) {
      this.vectors.delete(key);
      this.vectors.set(key, kept);
      return Promise.resolve(kept);
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const call = this.embedder.embed([text]).then(([vector]) => {
      this.keep(key, vector);
      return vector;
    });
    this.inFlight.set(key, call);
    const forget = () => this.inFlight.delete(key);
    call.then(forget, forget);
    return call;
  }

  private keep(key: string, vector: readonly number[]): void {
    if (this.maxEntries <= 0) return;
    this.vectors.set(key, vector);
    while (this.vectors.size > this.maxEntries) this.vectors.delete(this.vectors.keys().next().value!);
  }
}
