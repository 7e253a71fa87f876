import { createPublicKey, constants as cryptoConstants, verify } from 'node:crypto';
import type { FakeVenueData, FakeVenueRequest, KalshiMarketFixture, KalshiOrderbookFixture } from './fake-venues.types';
import { intParam, notFound, ok, uuid, wobble, type Reply } from './fake-venue-a.replies';

/** What the fake answers as venue_b (Kalshi's trade API v2): events, books, candles, trades, the member's orders. */

/* ------------------------------------------------------------------ venue_b */

export function kalshiMarkets(data: FakeVenueData): KalshiMarketFixture[] {
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

export function kalshiCandles(m: KalshiMarketFixture, start: number, end: number, periodMin: number): unknown[] {
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
export function encodeCursor(n: number): string {
  return Buffer.from(`offset:${n}`).toString('base64url');
}
export function decodeCursor(c: string | null): number {
  if (!c) return 0;
  const m = /^offset:(\d+)$/.exec(Buffer.from(c, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : 0;
}

export function cursorPage<T>(rows: T[], q: URLSearchParams, maxLimit: number): { page: T[]; cursor: string } {
  const limit = Math.min(maxLimit, Math.max(1, intParam(q, 'limit', 100)));
  const offset = decodeCursor(q.get('cursor'));
  const page = rows.slice(offset, offset + limit);
  return { page, cursor: offset + limit < rows.length ? encodeCursor(offset + limit) : '' };
}

export function handleKalshiOrder(data: FakeVenueData, body: unknown): Reply {
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
export function handleKalshiOrderList(data: FakeVenueData, q: URLSearchParams): Reply {
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
export function handleKalshiFills(data: FakeVenueData, q: URLSearchParams): Reply {
  const ticker = q.get('ticker');
  const orderId = q.get('order_id');
  const minTs = intParam(q, 'min_ts', 0);
  const rows = data.venueB.fills.filter(
    (f) => (!ticker || f.ticker === ticker) && (!orderId || f.order_id === orderId) && Number(f.ts) >= minTs,
  );
  const { page, cursor } = cursorPage(rows, q, 200);
  return ok({ fills: page, cursor });
}

export function verifySignature(publicKeyPem: string, req: FakeVenueRequest): boolean {
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

export function handleKalshi(data: FakeVenueData, req: FakeVenueRequest, publicKeyPem: string | null): Reply {
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
