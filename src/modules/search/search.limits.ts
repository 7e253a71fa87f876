/** Input bounds of `GET /api/events/search` (the interface document's Limits section). */
export const SEARCH_LIMITS = {
  q: { max: 200 },
  limit: { min: 1, max: 100, default: 10 },
  threshold: { min: 0, max: 1, default: 0.1 },
} as const;

/** Texts sent to the embedder per call while (re)indexing the catalog. */
export const EMBED_BATCH_SIZE = 64;
/** Longest document text embedded for one event (remote APIs bound their input). */
export const MAX_DOCUMENT_CHARS = 4_000;
/** Query vectors kept per process unless configured (`SEARCH_EMBEDDING_CACHE_SIZE`). */
export const QUERY_CACHE_DEFAULT = 1000;
