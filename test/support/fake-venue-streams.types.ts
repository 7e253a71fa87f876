import type { IncomingHttpHeaders } from 'node:http';
import type { Level } from './fake-venue-books';
import type { AddTradeInput } from './fake-venues';

/** The venues' websocket stand-ins (startFakeVenueStreams in fake-venue-streams.ts): what a test drives. */

export type StreamVenue = 'venue_a' | 'venue_b';
export const PATHS: Record<StreamVenue, string> = {
  venue_a: '/venue-a/ws/market',
  venue_b: '/venue-b/trade-api/ws/v2',
};

type Json = Record<string, unknown>;

export interface FakeVenueStreams {
  readonly venueAUrl: string;
  readonly venueBUrl: string;
  /** Settings pointing the service at these websockets: streams on, 1 s heartbeats, short reconnect waits. */
  readonly env: Record<string, string>;
  /** Every frame a client sent, in order. */
  readonly received: { venue: StreamVenue; text: string; at: number }[];
  readonly handshakes: { venue: StreamVenue; headers: IncomingHttpHeaders; refused: boolean }[];
  openConnections(venue: StreamVenue): number;
  /** venue_a: the tokens subscribed on some open connection. */
  subscribedAssets(): Set<string>;
  /** venue_b: the tickers a channel is subscribed for on some open connection (`*`: every market). */
  subscribedTickers(channel: string): Set<string>;
  /** The YES book the venue holds now (venue_a by condition id, venue_b by ticker), best first. */
  book(venue: StreamVenue, marketId: string): Promise<{ bids: Level[]; asks: Level[] }>;
  /** venue_a: a level of the YES book at a new size (0 removes it), printed as `price_change`. */
  setLevelA(conditionId: string, side: 'bids' | 'asks', price: number, size: number): Promise<void>;
  /**
   * venue_b: a relative change of a YES or NO bid, printed as `orderbook_delta`; `lose`: its seq is
   * used, the frame never sent (a gap).
   */
  deltaB(ticker: string, side: 'yes' | 'no', price: number, delta: number, lose?: boolean): Promise<void>;
  /** A public trade: on the HTTP tape (same id) unless `tape` is false, and printed on the stream; the venue's id. */
  trade(venue: StreamVenue, t: AddTradeInput, opts?: { tape?: boolean }): string;
  /** venue_b: a `ticker` message. */
  tickerB(ticker: string, msg: Json): void;
  /** A raw text frame to every open connection of the venue. */
  send(venue: StreamVenue, text: string): void;
  drop(venue: StreamVenue): void;
  refuse(venue: StreamVenue, times: number): void;
  silence(venue: StreamVenue, silent: boolean): void;
  /** venue_a: subscribing is answered without `book` messages (an HTTP read must stand in). */
  booksOnSubscribe(on: boolean): void;
  /** venue_b: with a key, `orderbook_delta` needs a handshake signed by its private half. */
  requireSignature(publicKeyPem: string | null): void;
  close(): Promise<void>;
}
