import { readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';

/** The fake venues' fixtures (the venues' documented shapes), their mutable world, and the fake's knobs. */

const FIXTURES = path.join(__dirname, 'fixtures', 'venues');

function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')) as T;
}

/* ------------------------------------------------------------------ shapes */

/** A Gamma market as `/events` nests it (only the fields the fake reads are typed). */
export interface GammaMarketFixture {
  id: string;
  question: string;
  conditionId: string;
  outcomes: string;
  outcomePrices: string;
  clobTokenIds: string;
  bestBid: number | null;
  bestAsk: number | null;
  orderPriceMinTickSize?: number;
  closed: boolean;
  [field: string]: unknown;
}
export interface GammaEventFixture {
  id: string;
  title: string;
  active: boolean;
  closed: boolean;
  markets: GammaMarketFixture[];
  [field: string]: unknown;
}
export interface ClobBookFixture {
  market: string;
  asset_id: string;
  bids: { price: string; size: string }[];
  asks: { price: string; size: string }[];
  [field: string]: unknown;
}
export interface DataApiTradeFixture {
  proxyWallet: string;
  side: 'BUY' | 'SELL';
  asset: string;
  conditionId: string;
  size: number;
  price: number;
  timestamp: number;
  outcome: string;
  outcomeIndex: number;
  transactionHash: string;
  [field: string]: unknown;
}
export interface DataApiHoldersFixture {
  token: string;
  holders: { proxyWallet: string; amount: number; outcomeIndex: number; [field: string]: unknown }[];
}
export interface KalshiMarketFixture {
  ticker: string;
  event_ticker: string;
  title: string;
  status: string;
  yes_bid: number;
  yes_ask: number;
  last_price: number;
  [field: string]: unknown;
}
export interface KalshiEventFixture {
  event_ticker: string;
  series_ticker: string;
  title: string;
  markets: KalshiMarketFixture[];
  [field: string]: unknown;
}
export type KalshiOrderbookFixture =
  | {
      orderbook: {
        yes?: number[][];
        no?: number[][];
        yes_dollars?: [string, number][];
        no_dollars?: [string, number][];
      };
    }
  | { orderbook_fp: { yes_dollars: [string, string][]; no_dollars: [string, string][] } };
export interface KalshiTradeFixture {
  trade_id: string;
  ticker: string;
  count: number;
  count_fp?: string;
  yes_price: number;
  no_price: number;
  yes_price_dollars: string;
  no_price_dollars: string;
  taker_side: 'yes' | 'no';
  created_time: string;
}

/** The fake's mutable world; tests may edit it between requests. */
export interface FakeVenueData {
  venueA: {
    events: GammaEventFixture[];
    /** By token id; tokens without an entry get a book built around the market's best bid and ask. */
    books: Record<string, ClobBookFixture>;
    /** Newest first. */
    trades: DataApiTradeFixture[];
    /** By condition id. */
    holders: Record<string, DataApiHoldersFixture[]>;
  };
  venueB: {
    events: KalshiEventFixture[];
    /** By market ticker; tickers without an entry get a book built from the market's bid and ask. */
    orderbooks: Record<string, KalshiOrderbookFixture>;
    /** Newest first. */
    trades: KalshiTradeFixture[];
    /** Orders accepted by `POST /portfolio/orders`, by order id. */
    orders: Record<string, Record<string, unknown>>;
    /** The member's fills (`GET /portfolio/fills`), newest first: one per order that filled. */
    fills: Record<string, unknown>[];
  };
}

/** Loads a fresh copy of the JSON fixtures. */
export function loadVenueFixtures(): FakeVenueData {
  return {
    venueA: {
      events: fixture('venue-a-events.json'),
      books: fixture('venue-a-books.json'),
      trades: fixture('venue-a-trades.json'),
      holders: fixture('venue-a-holders.json'),
    },
    venueB: {
      events: fixture('venue-b-events.json'),
      orderbooks: fixture('venue-b-orderbooks.json'),
      trades: fixture('venue-b-trades.json'),
      orders: {},
      fills: [],
    },
  };
}

/* ------------------------------------------------------------------ knobs */

export type FakeApi = 'gamma' | 'clob' | 'data' | 'kalshi';

export interface FakeVenueRequest {
  api: FakeApi;
  method: string;
  /** Path under the API's base (e.g. `/events`), without the query. */
  path: string;
  /** The whole path as sent on the wire, without the query (what venue_b's signature covers). */
  wirePath: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  at: number;
}

export type FakeFault =
  /** Answer with this status (and optional Retry-After seconds and JSON body). */
  | { kind: 'status'; status: number; retryAfter?: number | string; body?: unknown }
  /** Never answer (the connection stays open until the client gives up or the server closes). */
  | { kind: 'hang' }
  /** 200 with a body that is not JSON. */
  | { kind: 'malformed' }
  /** 200 with this JSON body in place of the real answer (for wrong-shape payloads). */
  | { kind: 'json'; body: unknown }
  /** Destroy the socket without answering. */
  | { kind: 'reset' }
  /** Answer as usual, `ms` after the request arrived (a slow venue). */
  | { kind: 'delay'; ms: number }
  /** Answer as usual once `until` settles (a venue that answers when the test says). */
  | { kind: 'hold'; until: Promise<unknown> }
  /**
   * Act on the request as usual (an order is taken), then lose the answer: `reset` destroys the
   * socket, `hang` never answers, a number answers that status in place of the real answer.
   */
  | { kind: 'lost'; then: 'reset' | 'hang' | number };

export interface FaultMatch {
  api?: FakeApi;
  method?: string;
  /** Exact path under the API base, or a pattern tested against it. */
  path?: string | RegExp;
}

export interface AddTradeInput {
  venueMarketId: string;
  outcome: 'yes' | 'no';
  /** venue_a only: the taker's side (venue_b's public trades are always the taker buying `outcome`). */
  side?: 'buy' | 'sell';
  /** In the traded outcome's terms, 0..1. */
  price: number;
  size: number;
  at?: Date;
  /** venue_a only. */
  wallet?: string;
}

export interface FakeVenues {
  /** The server's root, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly gammaUrl: string;
  readonly clobUrl: string;
  readonly dataUrl: string;
  /** venue_b's trade API v2 base (ends in `/trade-api/v2`). */
  readonly kalshiUrl: string;
  /** Settings pointing the service at this server (`VENUE_SOURCE=live`, the four URLs, no websockets). */
  readonly env: Record<string, string>;
  readonly data: FakeVenueData;
  readonly requests: FakeVenueRequest[];
  /** Queues a fault for the next `times` requests that match (default 1; Infinity until cleared). */
  fault(match: FaultMatch, fault: FakeFault, times?: number): void;
  clearFaults(): void;
  /** Publishes a trade on a venue's public feed (newest first); returns the venue's trade id. */
  addTrade(venue: 'venue_a' | 'venue_b', trade: AddTradeInput): string;
  /** With a key, `POST /portfolio/orders` requires a valid signature from its private half (401 otherwise). */
  requireSignature(publicKeyPem: string | null): void;
  /** Requests to one API (and optionally one path). */
  requestsTo(api: FakeApi, pathname?: string): FakeVenueRequest[];
  close(): Promise<void>;
}
