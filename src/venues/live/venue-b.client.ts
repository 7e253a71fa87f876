import { z } from 'zod';
import type { Logger } from '../../http/logger';
import { noBidsToYesAsks } from '../sim/sim-book';
import { INTERVAL_SECONDS, MAX_HISTORY_POINTS } from '../sim/sim-history';
import type {
  BookLevel,
  Candle,
  HoldersResult,
  OrderBook,
  PriceHistory,
  PriceHistoryQuery,
  PublicTrade,
  VenueEvent,
} from '../venue.models';
import {
  type PlaceOrderRequest,
  type PlaceOrderResult,
  type TradeListener,
  type VenueBudget,
  type VenueClient,
  type VenueReadOptions,
  VenueOutcomeUnknownError,
  VenueUnavailableError,
} from '../venue-client';
import { aboutMarket, type VenueHttp } from './http';
import type { VenueReadCache } from './read-cache';
import { TradePoller } from './trade-poller';
import { bookSide, centsToPrice, contracts, decimalPrice } from './units';
import { findVenueBOrder, type VenueOrderQuery, type VenueOrderReport } from './venue-b-order-lookup';
import { venueBAuthHeaders, type VenueBCredentials } from './venue-b-signing';
import {
  aggregate,
  candlesAnswer,
  DP,
  eventsPage,
  level,
  oneEvent,
  oneMarket,
  orderAnswer,
  orderbookAnswer,
  PERIODS,
  priceOf,
  TICK,
  toVenueBEvent,
  toVenueBTrade,
  type KalshiTrade,
  tradesPage,
} from './venue-b.wire';

/**
 * venue_b over Kalshi's trade API v2: open events with nested markets (cursor
 * paging), order books of YES and NO bids turned into one YES book, candles
 * from the series' candlesticks, public trades (cursor paging), and orders
 * through the signed `POST /portfolio/orders`. Prices arrive as cents and/or
 * dollar strings with four decimals; both become exact 0..1 numbers.
 */

export interface VenueBClientOptions {
  tradesPollMs: number;
  logger: Logger;
  /** Needed only for orders. */
  credentials?: VenueBCredentials;
  /** Events per page (the venue allows up to 200). */
  pageSize?: number;
  maxPages?: number;
  tradesPageSize?: number;
  now?: () => number;
  /**
   * The trade API on the order budget (its own limit, pool and breaker): orders and a live order's
   * book read; absent: the read client.
   */
  orders?: VenueHttp;
  /** Books, trades pages and candles shared by every caller for a short while; absent: none. */
  reads?: VenueReadCache;
}

export class VenueBClient implements VenueClient {
  readonly venue = 'venue_b' as const;
  /** Market ticker → series ticker (candlesticks are addressed by series). */
  private readonly series = new Map<string, string>();
  private readonly poller: TradePoller;

  constructor(
    private readonly api: VenueHttp,
    private readonly o: VenueBClientOptions,
  ) {
    this.poller = new TradePoller({
      venue: this.venue,
      intervalMs: o.tradesPollMs,
      logger: o.logger,
      fetchRecent: (isSeen) => this.recentTrades((t) => isSeen(t.venueTradeId)),
    });
  }

  /** Whether live orders can be signed (the key settings are present). */
  get canTrade(): boolean {
    return this.o.credentials !== undefined;
  }

  async listEvents(): Promise<VenueEvent[]> {
    const limit = this.o.pageSize ?? 200;
    const maxPages = this.o.maxPages ?? 200;
    const out: VenueEvent[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const res = await this.api.json(
        { path: '/events', query: { status: 'open', with_nested_markets: true, limit, cursor } },
        eventsPage,
      );
      for (const e of res.events)
        if (e.markets?.length)
          out.push(toVenueBEvent(e, new Date(this.now()), (ticker, series) => this.series.set(ticker, series)));
      cursor = res.cursor || undefined;
      if (!cursor || res.events.length === 0) return out;
    }
    this.o.logger.warn({ venue: this.venue }, `venue_b event listing stopped after ${maxPages} pages`);
    return out;
  }

  getOrderBook(venueMarketId: string, depth?: number, options?: VenueReadOptions): Promise<OrderBook> {
    const budget = options?.budget ?? 'read';
    return this.read(`book:${venueMarketId}:${depth ?? ''}`, budget, () => this.book(venueMarketId, depth, budget));
  }

  getPriceHistory(venueMarketId: string, query: PriceHistoryQuery): Promise<PriceHistory> {
    const key = `history:${venueMarketId}:${query.interval}:${query.from}:${query.to}`;
    return this.read(key, 'read', () => this.candles(venueMarketId, query));
  }

  getPublicTrades(venueMarketId: string, page: { limit: number; offset: number }): Promise<PublicTrade[]> {
    const key = `trades:${venueMarketId}:${page.limit}:${page.offset}`;
    return this.read(key, 'read', () => this.publicTrades(venueMarketId, page));
  }

  private read<T>(key: string, budget: VenueBudget, load: () => Promise<T>): Promise<T> {
    return this.o.reads ? this.o.reads.get(key, budget, load) : load();
  }

  /** The client of a budget: the order budget's own when there is one. */
  private http(budget: VenueBudget): VenueHttp {
    return budget === 'order' ? (this.o.orders ?? this.api) : this.api;
  }

  private async book(venueMarketId: string, depth: number | undefined, budget: VenueBudget): Promise<OrderBook> {
    const res = await aboutMarket(this.venue, venueMarketId, () =>
      this.http(budget).json(
        { path: `/markets/${encodeURIComponent(venueMarketId)}/orderbook`, query: { depth: depth || undefined } },
        orderbookAnswer,
      ),
    );
    const book = res.orderbook_fp ?? res.orderbook ?? {};
    // Prefer the dollar levels (sub-penny exact); the cents levels are the older form.
    const side = (d: z.infer<typeof level>[] | null | undefined, c: z.infer<typeof level>[] | null | undefined) =>
      d
        ? d.map(([p, n]) => ({ price: decimalPrice(p, DP) ?? 0, size: contracts(n) }))
        : (c ?? []).map(([p, n]) => ({ price: centsToPrice(Number(p)), size: contracts(n) }));
    const yesBids: BookLevel[] = side(book.yes_dollars, book.yes);
    const noBids: BookLevel[] = side(book.no_dollars, book.no);
    return {
      venue: this.venue,
      venueMarketId,
      bids: bookSide(yesBids, 'bids', depth),
      asks: bookSide(noBidsToYesAsks(bookSide(noBids, 'bids'), TICK), 'asks', depth),
      timestamp: new Date(this.now()),
    };
  }

  private async candles(venueMarketId: string, query: PriceHistoryQuery): Promise<PriceHistory> {
    const series = await this.seriesOf(venueMarketId);
    const { period, per } = PERIODS[query.interval];
    const res = await aboutMarket(this.venue, venueMarketId, () =>
      this.api.json(
        {
          path: `/series/${encodeURIComponent(series)}/markets/${encodeURIComponent(venueMarketId)}/candlesticks`,
          query: { start_ts: query.from, end_ts: query.to, period_interval: period },
        },
        candlesAnswer,
      ),
    );
    const periodS = period * 60;
    const base: Candle[] = [];
    let previousClose: number | null = null;
    for (const k of res.candlesticks) {
      const p = k.price;
      let close = priceOf(p?.close_dollars, p?.close);
      let o = priceOf(p?.open_dollars, p?.open);
      let h = priceOf(p?.high_dollars, p?.high);
      let l = priceOf(p?.low_dollars, p?.low);
      if (close === null) {
        // No trade in the period: a flat candle at the previous close, or the quotes' midpoint.
        const bid = priceOf(k.yes_bid?.close_dollars, k.yes_bid?.close);
        const ask = priceOf(k.yes_ask?.close_dollars, k.yes_ask?.close);
        close = previousClose ?? (bid !== null && ask !== null ? decimalPrice((bid + ask) / 2, DP) : (bid ?? ask));
        if (close === null) continue;
        o = h = l = close;
      }
      previousClose = close;
      base.push({
        t: k.end_period_ts - periodS,
        o: o ?? close,
        h: h ?? close,
        l: l ?? close,
        c: close,
        v: k.volume_fp ? contracts(k.volume_fp) : (k.volume ?? 0),
      });
    }
    const candles = per === 1 ? base : aggregate(base, INTERVAL_SECONDS[query.interval]);
    return {
      kind: 'ohlcv',
      candles: candles
        .filter((c) => c.t >= query.from - INTERVAL_SECONDS[query.interval] && c.t <= query.to)
        .slice(-MAX_HISTORY_POINTS),
    };
  }

  private async publicTrades(venueMarketId: string, page: { limit: number; offset: number }): Promise<PublicTrade[]> {
    if (page.limit <= 0) return [];
    // The venue pages by cursor: walk pages until the offset + limit newest trades are in hand.
    const want = page.offset + page.limit;
    const rows: KalshiTrade[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 100 && rows.length < want; i++) {
      const res = await this.api.json(
        {
          path: '/markets/trades',
          query: { ticker: venueMarketId, limit: Math.min(1000, want - rows.length), cursor },
        },
        tradesPage,
      );
      rows.push(...res.trades);
      cursor = res.cursor || undefined;
      if (!cursor || res.trades.length === 0) break;
    }
    return rows.slice(page.offset, want).map((t) => toVenueBTrade(t));
  }

  getHolders(): Promise<HoldersResult> {
    return Promise.resolve({ supported: false, reason: 'venue_b does not publish holder identities', holders: [] });
  }

  async placeOrder(order: PlaceOrderRequest): Promise<PlaceOrderResult> {
    const creds = this.o.credentials;
    if (!creds) {
      throw new VenueUnavailableError(this.venue, 'venue_b orders need VENUE_B_API_KEY_ID and VENUE_B_PRIVATE_KEY');
    }
    if (!Number.isInteger(order.size) || order.size < 1) {
      return { venueOrderId: '', status: 'rejected', fills: [], reason: 'venue_b trades whole contracts only' };
    }
    const priceField = order.outcome === 'yes' ? 'yes_price' : 'no_price';
    const body: Record<string, unknown> = {
      ticker: order.venueMarketId,
      client_order_id: order.clientOrderId,
      side: order.outcome,
      action: order.side,
      count: order.size,
      type: order.orderType,
      // The contract's orders fill now or not at all: what is not filled at once is cancelled.
      time_in_force: 'immediate_or_cancel',
    };
    if (order.orderType === 'limit' && order.limitPrice !== undefined) {
      body[priceField] = Math.round(order.limitPrice * 100);
    } else if (order.side === 'buy') {
      // A market buy names the most it may spend (cents): every contract at the top price.
      body.buy_max_cost = 99 * order.size;
    }
    const res = await aboutMarket(this.venue, order.venueMarketId, () =>
      this.http('order').json(
        {
          method: 'POST',
          path: '/portfolio/orders',
          body,
          headers: (wire) => venueBAuthHeaders(creds, wire.method, wire.path, () => this.now()),
        },
        orderAnswer,
      ),
    );
    const o = res.order;
    // Immediate-or-cancel: the answer is final (`executed` or `canceled`). Any other status means the
    // venue may still fill it: what it filled is asked later (by its client order id), never assumed.
    if (o.status !== 'executed' && o.status !== 'canceled') {
      throw new VenueOutcomeUnknownError(this.venue, `venue_b answered the order ${o.status}, not final yet`);
    }
    const filled = o.fill_count_fp ? contracts(o.fill_count_fp) : (o.fill_count ?? 0);
    const costDollars =
      (o.taker_fill_cost_dollars ? Number(o.taker_fill_cost_dollars) : (o.taker_fill_cost ?? 0) / 100) +
      (o.maker_fill_cost_dollars ? Number(o.maker_fill_cost_dollars) : (o.maker_fill_cost ?? 0) / 100);
    const fills =
      filled > 0
        ? [{ price: decimalPrice(costDollars / filled, DP) ?? 0, size: filled, filledAt: new Date(this.now()) }]
        : [];
    if (filled <= 0) {
      // The venue took the order and cancelled it unfilled: the same end the reconciler records from it.
      return {
        venueOrderId: o.order_id,
        status: 'cancelled',
        fills,
        reason: `venue_b ${o.status} the order without a fill`,
      };
    }
    return { venueOrderId: o.order_id, status: filled >= order.size ? 'filled' : 'partially_filled', fills };
  }

  /**
   * The order placed with `q.clientOrderId` and what it filled, or null when it never reached the
   * venue (see {@link findVenueBOrder}); on the order budget, signed.
   */
  findOrder(q: VenueOrderQuery): Promise<VenueOrderReport | null> {
    const creds = this.o.credentials;
    if (!creds) {
      return Promise.reject(
        new VenueUnavailableError(this.venue, 'venue_b orders need VENUE_B_API_KEY_ID and VENUE_B_PRIVATE_KEY'),
      );
    }
    return findVenueBOrder(this.http('order'), creds, () => this.now(), q);
  }

  onTrade(listener: TradeListener): () => void {
    return this.poller.subscribe(listener);
  }

  /** One poll of the feed now (tests). */
  pollTradesOnce(): Promise<void> {
    return this.poller.pollOnce();
  }

  /** The venue's newest public trades back to `since` (ms; three pages at most), newest first: a stream's catch-up. */
  fetchRecentTrades(since: number): Promise<PublicTrade[]> {
    return this.recentTrades((t) => t.filledAt.getTime() < since);
  }

  /** While `paused()` holds, the trade feed's polls are skipped (a stream carries the trades). */
  gateTradePolling(paused: () => boolean): void {
    this.poller.gate(paused);
  }

  /** Stops the trade polling and closes the connection pools. */
  async close(): Promise<void> {
    this.poller.stop();
    await Promise.all([this.api.close(), this.o.orders?.close()]);
  }

  private now(): number {
    return this.o.now ? this.o.now() : Date.now();
  }

  private async recentTrades(reached: (t: PublicTrade) => boolean): Promise<PublicTrade[]> {
    const limit = this.o.tradesPageSize ?? 100;
    const out: PublicTrade[] = [];
    let cursor: string | undefined;
    // Pages back while a whole page is new (more trades than a page since the last poll), three at most.
    for (let page = 0; page < 3; page++) {
      const res = await this.api.json({ path: '/markets/trades', query: { limit, cursor } }, tradesPage);
      const trades = res.trades.map((t) => toVenueBTrade(t));
      out.push(...trades);
      cursor = res.cursor || undefined;
      if (!cursor || trades.length < limit || trades.some(reached)) break;
    }
    return out;
  }

  private async seriesOf(ticker: string): Promise<string> {
    const known = this.series.get(ticker);
    if (known) return known;
    const { market } = await aboutMarket(this.venue, ticker, () =>
      this.api.json({ path: `/markets/${encodeURIComponent(ticker)}` }, oneMarket),
    );
    const { event } = await aboutMarket(this.venue, ticker, () =>
      this.api.json({ path: `/events/${encodeURIComponent(market.event_ticker)}` }, oneEvent),
    );
    this.series.set(ticker, event.series_ticker);
    return event.series_ticker;
  }
}
