import { createHash, createPublicKey, constants as cryptoConstants, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * A local stand-in for both real venues, speaking their documented shapes:
 * venue_a as Polymarket (Gamma `/events`, CLOB `/book` and `/prices-history`,
 * Data API `/trades` and `/holders`) and venue_b as Kalshi's trade API v2
 * (`/events`, `/markets/{ticker}/orderbook`, candlesticks, `/markets/trades`,
 * `POST /portfolio/orders`, and the member's `GET /portfolio/orders` and
 * `GET /portfolio/fills`). One HTTP server on 127.0.0.1, port 0; each API
 * lives under its own path prefix so the clients' base URLs differ.
 *
 * Knobs: faults (status with Retry-After, hang, malformed JSON, a wrong
 * shape) queued per route, trades added at runtime, a public key that makes
 * order requests require a valid RSA-PSS signature, and every request recorded.
 */

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

/* ------------------------------------------------------------------ helpers */

const PREFIX: Record<FakeApi, string> = {
  gamma: '/venue-a/gamma',
  clob: '/venue-a/clob',
  data: '/venue-a/data',
  kalshi: '/venue-b/trade-api/v2',
};

function parseArray(s: string): string[] {
  const v: unknown = JSON.parse(s);
  return Array.isArray(v) ? v.map(String) : [];
}

function intParam(q: URLSearchParams, name: string, fallback: number): number {
  const raw = q.get(name);
  const n = raw === null ? NaN : Number(raw);
  return Number.isFinite(n) ? Math.floor(n) : fallback;
}

function round(n: number, dp: number): number {
  const f = 10 ** dp;
  return Math.round(n * f) / f;
}

function hex(seed: string, len: number): string {
  let out = '';
  let i = 0;
  while (out.length < len) out += createHash('sha256').update(`${seed}:${i++}`).digest('hex');
  return out.slice(0, len);
}

function uuid(seed: string): string {
  const h = hex(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A deterministic wobble in [-1, 1] for synthesised history. */
function wobble(key: string, t: number): number {
  const h = createHash('sha256').update(`${key}:${t}`).digest();
  return (h.readUInt16BE(0) / 0xffff) * 2 - 1;
}

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const ok = (body: unknown): Reply => ({ status: 200, body });
const notFound = (message: string): Reply => ({ status: 404, body: { error: message } });

/* ------------------------------------------------------------------ venue_a */

function gammaMarkets(data: FakeVenueData): GammaMarketFixture[] {
  return data.venueA.events.flatMap((e) => e.markets);
}

/** The venue_a market of an outcome token, and the token's index (0: YES). */
export function marketByToken(data: FakeVenueData, token: string): { m: GammaMarketFixture; index: number } | null {
  for (const m of gammaMarkets(data)) {
    const index = parseArray(m.clobTokenIds).indexOf(token);
    if (index >= 0) return { m, index };
  }
  return null;
}

function handleGamma(data: FakeVenueData, p: string, q: URLSearchParams): Reply {
  if (p === '/events') {
    let events = data.venueA.events;
    if (q.get('closed') === 'false') events = events.filter((e) => !e.closed);
    if (q.get('active') === 'true') events = events.filter((e) => e.active);
    const offset = Math.max(0, intParam(q, 'offset', 0));
    const limit = Math.max(0, intParam(q, 'limit', 20));
    return ok(events.slice(offset, offset + limit));
  }
  if (p === '/markets') {
    const ids = q.getAll('condition_ids').flatMap((s) => s.split(','));
    const tokens = q.getAll('clob_token_ids').flatMap((s) => s.split(','));
    return ok(
      gammaMarkets(data).filter(
        (m) => ids.includes(m.conditionId) || parseArray(m.clobTokenIds).some((t) => tokens.includes(t)),
      ),
    );
  }
  return notFound(`no route ${p}`);
}

/** The book the fake serves for a token without a fixture book: three levels around the market's quotes. */
export function syntheticClobBook(m: GammaMarketFixture, token: string, index: number): ClobBookFixture {
  const tick = m.orderPriceMinTickSize ?? 0.01;
  const dp = Math.max(0, Math.round(-Math.log10(tick)));
  // The YES token's best bid and ask; the NO token's book is its mirror.
  const yesBid = m.bestBid;
  const yesAsk = m.bestAsk;
  const bid = index === 0 ? yesBid : yesAsk === null ? null : round(1 - yesAsk, dp);
  const ask = index === 0 ? yesAsk : yesBid === null ? null : round(1 - yesBid, dp);
  const levels = (best: number | null, dir: number): { price: string; size: string }[] =>
    best === null
      ? []
      : [2, 1, 0]
          .map((k) => round(best + dir * k * tick, dp))
          .filter((x) => x > 0 && x < 1)
          .map((x, k) => ({ price: String(x), size: String(100 * (k + 1)) }));
  return {
    market: m.conditionId,
    asset_id: token,
    timestamp: String(Date.now()),
    hash: hex(`book:${token}`, 40),
    // The CLOB lists bids ascending and asks descending: the best level is last on both sides.
    bids: levels(bid, -1),
    asks: levels(ask, +1),
    min_order_size: '5',
    tick_size: String(tick),
    neg_risk: false,
    last_trade_price: '0.5',
  };
}

function handleClob(data: FakeVenueData, p: string, q: URLSearchParams): Reply {
  if (p === '/book') {
    const token = q.get('token_id') ?? '';
    const found = marketByToken(data, token);
    if (!found) return notFound('No orderbook exists for the requested token id');
    return ok(data.venueA.books[token] ?? syntheticClobBook(found.m, token, found.index));
  }
  if (p === '/prices-history') {
    const token = q.get('market') ?? '';
    const found = marketByToken(data, token);
    if (!found) return ok({ history: [] });
    const start = intParam(q, 'startTs', 0);
    const end = intParam(q, 'endTs', Math.floor(Date.now() / 1000));
    const fidelityMin = Math.max(1, intParam(q, 'fidelity', 60));
    const step = fidelityMin * 60;
    const base = Number(parseArray(found.m.outcomePrices)[found.index] ?? '0.5');
    const history: { t: number; p: number }[] = [];
    for (let t = Math.ceil(start / step) * step; t <= end && history.length < 5000; t += step) {
      history.push({ t, p: round(Math.min(0.99, Math.max(0.01, base + 0.02 * wobble(token, t))), 4) });
    }
    return ok({ history });
  }
  return notFound(`no route ${p}`);
}

function handleData(data: FakeVenueData, p: string, q: URLSearchParams): Reply {
  if (p === '/trades') {
    const markets = q.getAll('market').flatMap((s) => s.split(','));
    const limit = Math.max(0, intParam(q, 'limit', 100));
    const offset = Math.max(0, intParam(q, 'offset', 0));
    const rows = markets.length
      ? data.venueA.trades.filter((t) => markets.includes(t.conditionId))
      : data.venueA.trades;
    return ok(rows.slice(offset, offset + limit));
  }
  if (p === '/holders') {
    const market = q.get('market') ?? '';
    const limit = Math.max(0, intParam(q, 'limit', 20));
    const groups = data.venueA.holders[market] ?? [];
    return ok(groups.map((g) => ({ token: g.token, holders: g.holders.slice(0, limit) })));
  }
  return notFound(`no route ${p}`);
}

/* ------------------------------------------------------------------ venue_b */

function kalshiMarkets(data: FakeVenueData): KalshiMarketFixture[] {
  return data.venueB.events.flatMap((e) => e.markets);
}

/** The book the fake serves for a ticker without a fixture book, built from the market's bid and ask. */
export function syntheticKalshiBook(m: KalshiMarketFixture): KalshiOrderbookFixture {
  const yesBid = m.yes_bid;
  const noBid = 100 - m.yes_ask;
  const side = (best: number): number[][] =>
    [best - 2, best - 1, best].filter((c) => c >= 1 && c <= 99).map((c, k) => [c, 50 * (3 - k)]);
  const yes = side(yesBid);
  const no = side(noBid);
  const dollars = (rows: number[][]): [string, number][] => rows.map(([c, n]) => [(c / 100).toFixed(4), n]);
  return { orderbook: { yes, no, yes_dollars: dollars(yes), no_dollars: dollars(no) } };
}

function kalshiCandles(m: KalshiMarketFixture, start: number, end: number, periodMin: number): unknown[] {
  const step = periodMin * 60;
  const out: unknown[] = [];
  const cents = (x: number): number => Math.min(99, Math.max(1, Math.round(x)));
  const ohlc = (mid: number, t: number): Record<string, number | string> => {
    const o = cents(mid + 2 * wobble(`${m.ticker}:o`, t));
    const c = cents(mid + 2 * wobble(`${m.ticker}:c`, t));
    const h = Math.max(o, c) + 1 > 99 ? 99 : Math.max(o, c) + 1;
    const l = Math.min(o, c) - 1 < 1 ? 1 : Math.min(o, c) - 1;
    return {
      open: o,
      high: h,
      low: l,
      close: c,
      open_dollars: (o / 100).toFixed(4),
      high_dollars: (h / 100).toFixed(4),
      low_dollars: (l / 100).toFixed(4),
      close_dollars: (c / 100).toFixed(4),
    };
  };
  for (let t = Math.ceil(start / step) * step + step; t <= end + step && out.length < 5000; t += step) {
    const price = ohlc(m.last_price, t);
    out.push({
      end_period_ts: t,
      yes_bid: ohlc(m.yes_bid, t),
      yes_ask: ohlc(m.yes_ask, t),
      price: { ...price, mean: price.close, previous: price.open, mean_dollars: price.close_dollars },
      volume: Math.round(100 + 90 * wobble(`${m.ticker}:v`, t)),
      open_interest: 1000,
    });
  }
  return out;
}

/** A position in a list of fixed rows, as an opaque cursor the way the venue's cursors are opaque. */
function encodeCursor(n: number): string {
  return Buffer.from(`offset:${n}`).toString('base64url');
}
function decodeCursor(c: string | null): number {
  if (!c) return 0;
  const m = /^offset:(\d+)$/.exec(Buffer.from(c, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : 0;
}

function cursorPage<T>(rows: T[], q: URLSearchParams, maxLimit: number): { page: T[]; cursor: string } {
  const limit = Math.min(maxLimit, Math.max(1, intParam(q, 'limit', 100)));
  const offset = decodeCursor(q.get('cursor'));
  const page = rows.slice(offset, offset + limit);
  return { page, cursor: offset + limit < rows.length ? encodeCursor(offset + limit) : '' };
}

function handleKalshiOrder(data: FakeVenueData, body: unknown): Reply {
  const b = (body ?? {}) as Record<string, unknown>;
  const m = kalshiMarkets(data).find((x) => x.ticker === b.ticker);
  if (!m) return notFound('market not found');
  const count = Number(b.count);
  if (
    !Number.isInteger(count) ||
    count < 1 ||
    (b.side !== 'yes' && b.side !== 'no') ||
    (b.action !== 'buy' && b.action !== 'sell')
  ) {
    return { status: 400, body: { error: { code: 'invalid_parameters', message: 'invalid order' } } };
  }
  const clientOrderId = typeof b.client_order_id === 'string' ? b.client_order_id : '';
  const existing = Object.values(data.venueB.orders).find((o) => o.client_order_id === clientOrderId && clientOrderId);
  if (existing)
    return { status: 409, body: { error: { code: 'order_already_exists', message: 'duplicate client_order_id' } } };
  // Fills at the market's quoted price when the limit crosses it (or for market orders), rests otherwise.
  const yesQuote = b.action === 'buy' ? m.yes_ask : m.yes_bid;
  const quote = b.side === 'yes' ? yesQuote : 100 - (b.action === 'buy' ? m.yes_bid : m.yes_ask);
  const limit = b.side === 'yes' ? Number(b.yes_price) : Number(b.no_price);
  const crosses =
    b.type === 'market' || !Number.isFinite(limit) || (b.action === 'buy' ? limit >= quote : limit <= quote);
  const orderId = uuid(`order:${clientOrderId}:${Object.keys(data.venueB.orders).length}`);
  const yesPrice = b.side === 'yes' ? quote : 100 - quote;
  const order = {
    order_id: orderId,
    user_id: 'fake-user',
    client_order_id: clientOrderId,
    ticker: m.ticker,
    side: b.side,
    action: b.action,
    type: b.type ?? 'limit',
    // Immediate-or-cancel orders that do not cross are cancelled instead of resting.
    status: crosses ? 'executed' : b.time_in_force === 'immediate_or_cancel' ? 'canceled' : 'resting',
    yes_price: crosses ? yesPrice : b.side === 'yes' ? limit : 100 - limit,
    no_price: crosses ? 100 - yesPrice : b.side === 'no' ? limit : 100 - limit,
    yes_price_dollars: ((crosses ? yesPrice : b.side === 'yes' ? limit : 100 - limit) / 100).toFixed(4),
    no_price_dollars: ((crosses ? 100 - yesPrice : b.side === 'no' ? limit : 100 - limit) / 100).toFixed(4),
    fill_count: crosses ? count : 0,
    fill_count_fp: (crosses ? count : 0).toFixed(2),
    remaining_count: crosses ? 0 : count,
    remaining_count_fp: (crosses ? 0 : count).toFixed(2),
    initial_count: count,
    taker_fill_cost: crosses ? quote * count : 0,
    taker_fill_cost_dollars: ((crosses ? quote * count : 0) / 100).toFixed(4),
    created_time: new Date().toISOString(),
    last_update_time: new Date().toISOString(),
  };
  data.venueB.orders[orderId] = order;
  if (crosses) {
    const fillId = uuid(`fill:${orderId}`);
    data.venueB.fills.unshift({
      fill_id: fillId,
      trade_id: fillId,
      order_id: orderId,
      client_order_id: clientOrderId,
      ticker: m.ticker,
      market_ticker: m.ticker,
      side: b.side,
      action: b.action,
      count,
      count_fp: count.toFixed(2),
      yes_price: yesPrice,
      no_price: 100 - yesPrice,
      yes_price_fixed: (yesPrice / 100).toFixed(4),
      no_price_fixed: ((100 - yesPrice) / 100).toFixed(4),
      is_taker: true,
      created_time: order.created_time,
      ts: Math.floor(Date.parse(order.created_time) / 1000),
    });
  }
  return { status: 201, body: { order } };
}

/** `GET /portfolio/orders`: the member's orders, newest first, filtered by ticker, time and status, cursor-paged. */
function handleKalshiOrderList(data: FakeVenueData, q: URLSearchParams): Reply {
  const limit = intParam(q, 'limit', 100);
  if (limit < 1 || limit > 200) {
    return { status: 400, body: { code: 'invalid_parameters', message: 'limit must be 1 to 200' } };
  }
  const ticker = q.get('ticker');
  const status = q.get('status');
  const minTs = intParam(q, 'min_ts', 0);
  const maxTs = intParam(q, 'max_ts', Number.MAX_SAFE_INTEGER);
  const rows = Object.values(data.venueB.orders)
    .filter((o) => {
      const ts = Date.parse(String(o.created_time)) / 1000;
      return (!ticker || o.ticker === ticker) && (!status || o.status === status) && ts >= minTs && ts <= maxTs;
    })
    .sort((a, b) => Date.parse(String(b.created_time)) - Date.parse(String(a.created_time)));
  const { page, cursor } = cursorPage(rows, q, 200);
  return ok({ orders: page, cursor });
}

/** `GET /portfolio/fills`: the member's fills, newest first, filtered by ticker, order and time, cursor-paged. */
function handleKalshiFills(data: FakeVenueData, q: URLSearchParams): Reply {
  const ticker = q.get('ticker');
  const orderId = q.get('order_id');
  const minTs = intParam(q, 'min_ts', 0);
  const rows = data.venueB.fills.filter(
    (f) => (!ticker || f.ticker === ticker) && (!orderId || f.order_id === orderId) && Number(f.ts) >= minTs,
  );
  const { page, cursor } = cursorPage(rows, q, 200);
  return ok({ fills: page, cursor });
}

function verifySignature(publicKeyPem: string, req: FakeVenueRequest): boolean {
  const key = req.headers['kalshi-access-key'];
  const ts = req.headers['kalshi-access-timestamp'];
  const sig = req.headers['kalshi-access-signature'];
  if (typeof key !== 'string' || typeof ts !== 'string' || typeof sig !== 'string' || !key) return false;
  try {
    return verify(
      'sha256',
      Buffer.from(`${ts}${req.method}${req.wirePath}`),
      {
        key: createPublicKey(publicKeyPem),
        padding: cryptoConstants.RSA_PKCS1_PSS_PADDING,
        saltLength: cryptoConstants.RSA_PSS_SALTLEN_DIGEST,
      },
      Buffer.from(sig, 'base64'),
    );
  } catch {
    return false;
  }
}

function handleKalshi(data: FakeVenueData, req: FakeVenueRequest, publicKeyPem: string | null): Reply {
  const { path: p, query: q } = req;
  if (req.method === 'POST' && p === '/portfolio/orders') {
    if (publicKeyPem && !verifySignature(publicKeyPem, req)) {
      return { status: 401, body: { error: { code: 'authentication_error', message: 'invalid signature' } } };
    }
    return handleKalshiOrder(data, req.body);
  }
  if (req.method === 'GET' && p.startsWith('/portfolio/orders/')) {
    if (publicKeyPem && !verifySignature(publicKeyPem, req)) {
      return { status: 401, body: { error: { code: 'authentication_error', message: 'invalid signature' } } };
    }
    const order = data.venueB.orders[decodeURIComponent(p.slice('/portfolio/orders/'.length))];
    return order ? ok({ order }) : notFound('order not found');
  }
  if (req.method === 'GET' && (p === '/portfolio/orders' || p === '/portfolio/fills')) {
    if (publicKeyPem && !verifySignature(publicKeyPem, req)) {
      return { status: 401, body: { error: { code: 'authentication_error', message: 'invalid signature' } } };
    }
    return p === '/portfolio/orders' ? handleKalshiOrderList(data, q) : handleKalshiFills(data, q);
  }
  if (p === '/events') {
    const status = q.get('status');
    const nested = q.get('with_nested_markets') === 'true';
    const events = data.venueB.events.filter(
      (e) => !status || status !== 'open' || e.markets.some((m) => m.status === 'active' || m.status === 'open'),
    );
    const { page, cursor } = cursorPage(events, q, 200);
    return ok({
      events: page.map((e) => (nested ? e : { ...e, markets: undefined })),
      cursor,
      milestones: [],
    });
  }
  if (p === '/markets/trades') {
    const ticker = q.get('ticker');
    const minTs = intParam(q, 'min_ts', 0);
    const rows = data.venueB.trades.filter(
      (t) => (!ticker || t.ticker === ticker) && Date.parse(t.created_time) / 1000 >= minTs,
    );
    const { page, cursor } = cursorPage(rows, q, 1000);
    return ok({ trades: page, cursor });
  }
  const book = /^\/markets\/([^/]+)\/orderbook$/.exec(p);
  if (book) {
    const ticker = decodeURIComponent(book[1]);
    const m = kalshiMarkets(data).find((x) => x.ticker === ticker);
    if (!m) return notFound('market not found');
    return ok(data.venueB.orderbooks[ticker] ?? syntheticKalshiBook(m));
  }
  const candles = /^\/series\/([^/]+)\/markets\/([^/]+)\/candlesticks$/.exec(p);
  if (candles) {
    const series = decodeURIComponent(candles[1]);
    const ticker = decodeURIComponent(candles[2]);
    const ev = data.venueB.events.find((e) => e.series_ticker === series && e.markets.some((m) => m.ticker === ticker));
    const m = ev?.markets.find((x) => x.ticker === ticker);
    if (!m) return notFound('market not found');
    const period = intParam(q, 'period_interval', 60);
    if (![1, 60, 1440].includes(period)) {
      return { status: 400, body: { error: { code: 'invalid_parameters', message: 'period_interval' } } };
    }
    return ok({ ticker, candlesticks: kalshiCandles(m, intParam(q, 'start_ts', 0), intParam(q, 'end_ts', 0), period) });
  }
  const event = /^\/events\/([^/]+)$/.exec(p);
  if (event) {
    const e = data.venueB.events.find((x) => x.event_ticker === decodeURIComponent(event[1]));
    if (!e) return notFound('event not found');
    const { markets, ...rest } = e;
    return ok({ event: rest, markets });
  }
  const market = /^\/markets\/([^/]+)$/.exec(p);
  if (market) {
    const m = kalshiMarkets(data).find((x) => x.ticker === decodeURIComponent(market[1]));
    return m ? ok({ market: m }) : notFound('market not found');
  }
  return notFound(`no route ${p}`);
}

/* ------------------------------------------------------------------ server */

interface QueuedFault {
  match: FaultMatch;
  fault: FakeFault;
  left: number;
}

function matches(m: FaultMatch, r: FakeVenueRequest): boolean {
  if (m.api && m.api !== r.api) return false;
  if (m.method && m.method.toUpperCase() !== r.method) return false;
  if (typeof m.path === 'string' && m.path !== r.path) return false;
  if (m.path instanceof RegExp && !m.path.test(r.path)) return false;
  return true;
}

/** Starts the fake venues on 127.0.0.1, port 0, over a fresh copy of the fixtures. */
export async function startFakeVenues(options: { data?: FakeVenueData } = {}): Promise<FakeVenues> {
  const data = options.data ?? loadVenueFixtures();
  const requests: FakeVenueRequest[] = [];
  let faults: QueuedFault[] = [];
  let publicKeyPem: string | null = null;
  let tradeSeq = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const api = (Object.keys(PREFIX) as FakeApi[]).find(
        (a) => url.pathname === PREFIX[a] || url.pathname.startsWith(`${PREFIX[a]}/`),
      );
      if (!api) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":"unknown api"}');
        return;
      }
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const r: FakeVenueRequest = {
        api,
        method: (req.method ?? 'GET').toUpperCase(),
        path: url.pathname.slice(PREFIX[api].length) || '/',
        wirePath: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        at: Date.now(),
      };
      requests.push(r);

      const queued = faults.find((f) => f.left > 0 && matches(f.match, r));
      if (queued) {
        queued.left -= 1;
        faults = faults.filter((f) => f.left > 0);
        const f = queued.fault;
        if (f.kind === 'delay') {
          setTimeout(answer, f.ms);
          return;
        }
        if (f.kind === 'hold') {
          void f.until.finally(answer);
          return;
        }
        if (f.kind === 'hang') return;
        if (f.kind === 'lost') {
          reply();
          if (f.then === 'reset') req.socket.destroy();
          else if (f.then !== 'hang') {
            res.writeHead(f.then, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: `fault ${f.then}` }));
          }
          return;
        }
        if (f.kind === 'reset') {
          req.socket.destroy();
          return;
        }
        if (f.kind === 'malformed') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"events": [ {"id": "1", "title": "trunc');
          return;
        }
        if (f.kind === 'json') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(f.body));
          return;
        }
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (f.retryAfter !== undefined) headers['retry-after'] = String(f.retryAfter);
        res.writeHead(f.status, headers);
        res.end(JSON.stringify(f.body ?? { error: `fault ${f.status}` }));
        return;
      }
      answer();

      function answer(): void {
        const out = reply();
        res.writeHead(out.status, { 'content-type': 'application/json', ...out.headers });
        res.end(JSON.stringify(out.body));
      }

      /** The venue's answer to the request, acting on it (an order is taken). */
      function reply(): Reply {
        try {
          return api === 'gamma'
            ? handleGamma(data, r.path, r.query)
            : api === 'clob'
              ? handleClob(data, r.path, r.query)
              : api === 'data'
                ? handleData(data, r.path, r.query)
                : handleKalshi(data, r, publicKeyPem);
        } catch (err) {
          return { status: 500, body: { error: String(err) } };
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const gammaUrl = `${url}${PREFIX.gamma}`;
  const clobUrl = `${url}${PREFIX.clob}`;
  const dataUrl = `${url}${PREFIX.data}`;
  const kalshiUrl = `${url}${PREFIX.kalshi}`;

  function addTrade(venue: 'venue_a' | 'venue_b', t: AddTradeInput): string {
    const at = t.at ?? new Date();
    tradeSeq += 1;
    if (venue === 'venue_a') {
      const m = gammaMarkets(data).find((x) => x.conditionId === t.venueMarketId);
      if (!m) throw new Error(`fake venue_a has no market ${t.venueMarketId}`);
      const index = t.outcome === 'yes' ? 0 : 1;
      const transactionHash = `0x${hex(`trade:a:${tradeSeq}:${at.getTime()}`, 64)}`;
      data.venueA.trades.unshift({
        proxyWallet: t.wallet ?? `0x${hex(`wallet:${tradeSeq}`, 40)}`,
        side: t.side === 'sell' ? 'SELL' : 'BUY',
        asset: parseArray(m.clobTokenIds)[index],
        conditionId: m.conditionId,
        size: t.size,
        price: t.price,
        timestamp: Math.floor(at.getTime() / 1000),
        title: m.question,
        slug: typeof m.slug === 'string' ? m.slug : '',
        outcome: parseArray(m.outcomes)[index] ?? (index === 0 ? 'Yes' : 'No'),
        outcomeIndex: index,
        name: '',
        pseudonym: '',
        transactionHash,
      });
      return transactionHash;
    }
    const m = kalshiMarkets(data).find((x) => x.ticker === t.venueMarketId);
    if (!m) throw new Error(`fake venue_b has no market ${t.venueMarketId}`);
    const cents = Math.round(t.price * 100);
    const yes = t.outcome === 'yes' ? cents : 100 - cents;
    const tradeId = uuid(`trade:b:${tradeSeq}:${at.getTime()}`);
    data.venueB.trades.unshift({
      trade_id: tradeId,
      ticker: m.ticker,
      count: t.size,
      count_fp: t.size.toFixed(2),
      yes_price: yes,
      no_price: 100 - yes,
      yes_price_dollars: (yes / 100).toFixed(4),
      no_price_dollars: ((100 - yes) / 100).toFixed(4),
      taker_side: t.outcome,
      created_time: at.toISOString(),
    });
    return tradeId;
  }

  return {
    url,
    gammaUrl,
    clobUrl,
    dataUrl,
    kalshiUrl,
    env: {
      VENUE_SOURCE: 'live',
      // This fake serves HTTP only: the websockets are test/support/fake-venue-streams.ts's (its env turns them on).
      VENUE_STREAMS: 'off',
      VENUE_A_GAMMA_URL: gammaUrl,
      VENUE_A_CLOB_URL: clobUrl,
      VENUE_A_DATA_URL: dataUrl,
      VENUE_B_API_URL: kalshiUrl,
    },
    data,
    requests,
    fault(match, fault, times = 1) {
      faults.push({ match, fault, left: times });
    },
    clearFaults() {
      faults = [];
    },
    addTrade,
    requireSignature(pem) {
      publicKeyPem = pem;
    },
    requestsTo(api, pathname) {
      return requests.filter((r) => r.api === api && (pathname === undefined || r.path === pathname));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
