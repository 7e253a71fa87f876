import type { BookLevel, OutcomeSide, Side, Venue } from '../../venues/venue.models';

/**
 * What the market streams publish, and the shapes every process reads. One process (the holder
 * of the venue-streams lease) keeps each followed market's book from the venues' streams and
 * publishes each change once on the market's own topic ({@link marketTopic}); any process serves
 * its clients from there.
 */

/** The family of the per-market topics: `market-updates#<venue>#<marketId>` (the lag metric is labelled by family). */
export const MARKET_UPDATES_TOPIC = 'market-updates';

/** The topic of one market's {@link MarketUpdate}s. */
export function marketTopic(venue: Venue, marketId: string): string {
  return `${MARKET_UPDATES_TOPIC}#${venue}#${marketId}`;
}

/** Each venue stream's state ({@link VenueStreamView}), published by the holder on change and every few seconds. */
export const VENUE_STREAMS_TOPIC = 'venue-streams.status';

/** A process asks the holder to follow a market a client watches ({@link MarketDemand}). */
export const MARKET_DEMAND_TOPIC = 'venue-streams.demand';

/** The shared-cache key of a market's current {@link BookSnapshot} (written before each update is published). */
export function bookKey(venue: Venue, marketId: string): string {
  return `market-book:${venue}:${marketId}`;
}

/** A trade in a market, as a market update carries it (the same trade is on the trades topic, with its id). */
export interface TradeTick {
  /** `venue:venueTradeId`, as on the trades topic. */
  id: string;
  side: Side;
  outcome: OutcomeSide;
  /** In the traded outcome's terms. */
  price: number;
  size: number;
  /** ISO 8601. */
  filledAt: string;
}

/**
 * One change of one market, published once on {@link marketTopic}. Updates of a market carry
 * consecutive `seq` numbers; a jump means updates were missed (read the snapshot again). A
 * holder that starts (or takes over) opens each market with a `snapshot` whose `seq` is above
 * every earlier one (the numbering is seeded from the clock in microseconds).
 */
export interface MarketUpdate {
  venue: Venue;
  /** The venue's market id. */
  marketId: string;
  seq: number;
  /**
   * `snapshot`: `bids` and `asks` are the whole book (replace what is held);
   * `delta`: `bids` and `asks` are the levels that changed, at their new size (0: the level is gone);
   * `stale`: the stream lost the market's book (a dropped connection, a gap, the market no longer
   * followed): what is held is not live; a `snapshot` follows when it is back.
   */
  kind: 'snapshot' | 'delta' | 'stale';
  /** `book`: the market's whole book streams; `quotes`: only its best bid and ask and last price do. */
  depth: 'book' | 'quotes';
  /** YES bids, best first. */
  bids: BookLevel[];
  /** YES asks, best first. */
  asks: BookLevel[];
  bestBid: number | null;
  bestAsk: number | null;
  /** The last trade's YES price. */
  lastPrice: number | null;
  tickSize: number | null;
  /** Trades in the market since the previous update, oldest first. */
  trades: TradeTick[];
  /** The venue's time of the newest change carried (ms). */
  at: number;
  /** When the holder received the first change carried (ms). */
  receivedAt: number;
  /** Why, for `stale`. */
  reason?: string;
}

/** A market's current book as the holder keeps it (the shared cache's copy, or the holder's own). */
export interface BookSnapshot {
  venue: Venue;
  marketId: string;
  /** The `seq` of the last update this book includes: apply updates after it. */
  seq: number;
  depth: 'book' | 'quotes';
  bids: BookLevel[];
  asks: BookLevel[];
  bestBid: number | null;
  bestAsk: number | null;
  lastPrice: number | null;
  tickSize: number | null;
  /** The venue's time of the newest change (ms). */
  at: number;
  /** Where the book came from last: the venue's stream, or an HTTP read after the stream lost it. */
  source: 'stream' | 'venue';
}

/** A process's request that the holder follow a market (repeated while a client watches it). */
export interface MarketDemand {
  venue: Venue;
  marketId: string;
}

/** Where a venue's live data comes from now. */
export interface VenueStreamView {
  venue: Venue;
  /** `live`: the venue's websocket; `sim`: the simulated world's stream. */
  source: 'live' | 'sim';
  /**
   * `up`, `connecting`, `down` (polling stands in), `off` (`VENUE_STREAMS=off`, or a venue with no
   * stream), or `unknown` (no process has said lately: none holds the streams' lease).
   */
  state: 'up' | 'connecting' | 'down' | 'off' | 'unknown';
  /** When the state began (ISO 8601), when known. */
  since: string | null;
  /** What went wrong last, while down. */
  reason: string | null;
  /** Where live trades come from: the stream, polling, or both (venue_a's stream names no trader). */
  trades: 'stream' | 'polling' | 'stream and polling';
  /** Where books come from: the stream (followed markets), or a venue read on request. */
  books: 'stream' | 'on request';
  /** Markets followed. */
  markets: number;
}
