import type { Venue } from '../../venues/venue.models';
import type { MarketUpdate } from './market-streams.models';

/**
 * What a client of a market's stream gets (GraphQL `marketUpdates`, REST `/stream/markets/…`): a
 * `snapshot` of the top of the book first, then each change of the market in `seq` order: the
 * market's {@link MarketUpdate}s, their levels cut to the client's `depth` (a `delta` carries the
 * levels that changed within the top `depth`, 0: gone from it; a snapshot carries no trades).
 */
export interface MarketStreamItem extends Omit<MarketUpdate, 'reason'> {
  /** `venue:marketId:seq`: the SSE `id:`, and what a client resumes after (`Last-Event-ID`, `after`). */
  id: string;
  /** Why, for `stale`; null otherwise. */
  reason: string | null;
}

/** A market a client follows. */
export interface MarketRef {
  venue: Venue;
  marketId: string;
}

/** The id of a stream item: `venue:marketId:seq`. */
export function streamItemId(venue: Venue, marketId: string, seq: number): string {
  return `${venue}:${marketId}:${seq}`;
}

/** A stream item id parsed (`venue:marketId:seq`; the market id may hold `:`), or null when malformed. */
export function parseStreamItemId(id: string): (MarketRef & { seq: number }) | null {
  const first = id.indexOf(':');
  const last = id.lastIndexOf(':');
  if (first <= 0 || last <= first + 1) return null;
  const seq = id.slice(last + 1);
  if (!/^\d{1,17}$/.test(seq)) return null;
  return { venue: id.slice(0, first) as Venue, marketId: id.slice(first + 1, last), seq: Number(seq) };
}
