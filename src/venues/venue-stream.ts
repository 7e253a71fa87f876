import type { BookLevel, PublicTrade, Venue } from './venue.models';

/**
 * The push side of a venue: what its websocket (or the simulated world) says as it happens,
 * parsed once into these events. Prices are YES prices on the 0..1 scale and sizes contracts,
 * whatever the venue sends; books are the YES book, best level first.
 *
 * A stream follows a set of markets ({@link VenueStream.follow}) and reports, per market, a whole
 * book when it has one it trusts (`book`), then level changes (`levels`, the new size at a price,
 * 0 = gone), quotes, tick changes and trades. When it can no longer vouch for a market's book (a
 * dropped connection, a sequence gap, a market it was told to follow but has no book of yet) it
 * says `stale`; the next `book` of that market makes it whole again.
 */
export type VenueStreamEvent =
  /** The market's whole YES book, replacing what was known. */
  | { kind: 'book'; venueMarketId: string; bids: BookLevel[]; asks: BookLevel[]; at: number; tickSize?: number }
  /** Levels of the YES book at their new size (0: the level is gone). Only after a `book` of the market. */
  | { kind: 'levels'; venueMarketId: string; changes: LevelChange[]; at: number }
  /** Best bid and ask and/or last price as the venue quotes them (a field left out is unchanged). */
  | {
      kind: 'quote';
      venueMarketId: string;
      bestBid?: number | null;
      bestAsk?: number | null;
      lastPrice?: number | null;
      at: number;
    }
  /** The market's price tick changed. */
  | { kind: 'tick'; venueMarketId: string; tickSize: number; at: number }
  /** A public trade, as the venue's polled tape would report it (same id). */
  | { kind: 'trade'; trade: PublicTrade }
  /** The stream cannot vouch for these markets' books any more, until their next `book`. */
  | { kind: 'stale'; venueMarketIds: string[]; reason: string }
  /** Trades may have been missed since `since` (ms): a dropped connection or a gap in the trade sequence. */
  | { kind: 'trade-gap'; since: number; reason: string };

/** One level of the YES book at its new size. */
export interface LevelChange {
  side: 'bids' | 'asks';
  price: number;
  /** Contracts resting at `price` now; 0 removes the level. */
  size: number;
}

/** A market a stream is told to follow. */
export interface StreamMarket {
  venueMarketId: string;
  /** The outcome tokens where the venue streams by token (venue_a's CLOB ids). */
  tokens?: { yes: string; no: string };
}

/** The state of a stream's connection(s). */
export type StreamState = 'connecting' | 'up' | 'down';

/** What a stream carries while it is up. */
export interface StreamCoverage {
  /** Whole books and their changes of the followed markets (else only quotes). */
  books: boolean;
  /** Every public trade of the venue (else only the followed markets'). */
  allTrades: boolean;
}

export interface VenueStreamHandlers {
  event(e: VenueStreamEvent): void;
  /** The connection state changed; `reason` says why when it went down. */
  state(state: StreamState, reason?: string): void;
  /** A frame the stream could not use (not JSON, not the documented shape) or an error the venue sent. */
  problem?(text: string): void;
}

/** A venue's push channel (a websocket, or the simulated world's clock). */
export interface VenueStream {
  readonly venue: Venue;
  readonly coverage: StreamCoverage;
  /** Connects (and keeps reconnecting) until {@link stop}. */
  start(handlers: VenueStreamHandlers): void;
  /** The markets to follow from now on (replaces the previous set). */
  follow(markets: readonly StreamMarket[]): void;
  stop(): Promise<void>;
}
