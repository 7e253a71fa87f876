import type { EventView } from '../events/events.models';

/** How a search compared vectors: in the database (pgvector) or exactly in process. */
export type SearchMethod = 'pgvector' | 'exact';

/** One ranked event id with its cosine similarity to the query. */
export interface RankedId {
  eventId: string;
  score: number;
}

export interface SearchHitView {
  /** Cosine similarity of the query and the event, −1..1 (rounded to 6 decimals). */
  score: number;
  event: EventView;
}

export interface SearchResultView {
  data: SearchHitView[];
  query: string;
  limit: number;
  threshold: number;
  provider: string;
  model: string;
  method: SearchMethod;
}

export interface SearchQuery {
  q: string;
  limit: number;
  threshold: number;
}

/** What one index refresh did. */
export interface IndexReport {
  events: number;
  /** Events whose vector was (re)computed: new, changed text, or another embedder. */
  embedded: number;
}

/** Published after a refresh wrote vectors: every process drops its exact-scan cache. */
export const SEARCH_INDEX_CHANGED_TOPIC = 'search.index.changed';
