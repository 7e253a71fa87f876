import { z } from 'zod';
import type { Logger } from '../../http/logger';
import { MAX_HISTORY_POINTS } from '../sim/sim-history';
import type {
  BookLevel,
  HoldersResult,
  MarketStatus,
  OrderBook,
  PriceHistory,
  PriceHistoryQuery,
  PublicTrade,
  VenueEvent,
  VenueMarket,
} from '../venue.models';
import {
  type PlaceOrderRequest,
  type PlaceOrderResult,
  type TradeListener,
  type VenueBudget,
  type VenueClient,
  type VenueReadOptions,
  VenueMarketNotFoundError,
  VenueUnavailableError,
} from '../venue-client';
import { aboutMarket, type VenueHttp } from './http';
import type { VenueReadCache } from './read-cache';
import { TradePoller } from './trade-poller';
import { bookSide, categoryOf, contracts, decimalPrice, tickDecimals } from './units';
import {
  clobBook,
  dataHolders,
  dataTrades,
  FIDELITY_MIN,
  gammaEvent,
  gammaEvents,
  gammaMarkets,
  pricesHistory,
  type GammaMarket,
  type DataTrade,
} from './venue-a.wire';

/**
 * venue_a over Polymarket's public APIs: Gamma for events and their markets
 * (offset paging), the CLOB for books and price history (keyed by the YES
 * outcome token), and the Data API for trades and holders (keyed by the
 * market's condition id, which is the venue market id here). Orders do not go
 * through this client: venue_a execution is the execution service's; a live
 * order's quote reads its book on the CLOB's order budget (`clobOrders`).
 */

export interface VenueAApis {
  gamma: VenueHttp;
  clob: VenueHttp;
  data: VenueHttp;
  /** The CLOB on the order budget (its own limit, pool and breaker); absent: `clob`. */
  clobOrders?: VenueHttp;
}

export interface VenueAClientOptions {
  tradesPollMs: number;
  logger: Logger;
  /** Events per Gamma page (its `limit`). */
  pageSize?: number;
  /** Pages read at most per listing, a guard against a venue that never ends a listing. */
  maxPages?: number;
  /** Trades per Data API page when polling. */
  tradesPageSize?: number;
  /** Books, trades pages, holders and history shared by every caller for a short while; absent: none. */
  reads?: VenueReadCache;
}

interface MarketRef {
  yes: string;
  no: string;
  dp: number;
}

export class VenueAClient implements VenueClient {
  readonly venue = 'venue_a' as const;
  private readonly refs = new Map<string, MarketRef>();
  private readonly poller: TradePoller;

  constructor(
    private readonly api: VenueAApis,
    private readonly o: VenueAClientOptions,
  ) {
    this.poller = new TradePoller({
      venue: this.venue,
      intervalMs: o.tradesPollMs,
      logger: o.logger,
      fetchRecent: (isSeen) => this.recentTrades((t) => isSeen(t.venueTradeId)),
    });
  }

  async listEvents(): Promise<VenueEvent[]> {
    const limit = this.o.pageSize ?? 100;
    const maxPages = this.o.maxPages ?? 200;
    const out: VenueEvent[] = [];
    for (let page = 0; page < maxPages; page++) {
      const rows = await this.api.gamma.json(
        { path: '/events', query: { active: true, closed: false, limit, offset: page * limit } },
        gammaEvents,
      );
      // An event without a binary market has nothing to trade here.
      for (const e of rows) out.push(this.toEvent(e));
      if (rows.length < limit) return out.filter((e) => e.markets.length > 0);
    }
    this.o.logger.warn({ venue: this.venue }, `venue_a event listing stopped after ${maxPages} pages`);
    return out.filter((e) => e.markets.length > 0);
  }

  /** The whole book is read (the CLOB has no depth) and shared; `depth` cuts each side here. */
  async getOrderBook(venueMarketId: string, depth?: number, options?: VenueReadOptions): Promise<OrderBook> {
    const budget = options?.budget ?? 'read';
    const book = await this.read(`book:${venueMarketId}`, budget, () => this.wholeBook(venueMarketId, budget));
    const cut = (levels: BookLevel[]) =>
      depth === undefined ? levels : levels.slice(0, Math.max(0, Math.floor(depth)));
    return { ...book, bids: cut(book.bids), asks: cut(book.asks) };
  }

  getPriceHistory(venueMarketId: string, query: PriceHistoryQuery): Promise<PriceHistory> {
    const key = `history:${venueMarketId}:${query.interval}:${query.from}:${query.to}`;
    return this.read(key, 'read', () => this.priceHistory(venueMarketId, query));
  }

  getPublicTrades(venueMarketId: string, page: { limit: number; offset: number }): Promise<PublicTrade[]> {
    const key = `trades:${venueMarketId}:${page.limit}:${page.offset}`;
    return this.read(key, 'read', () => this.publicTrades(venueMarketId, page));
  }

  getHolders(venueMarketId: string, limit: number): Promise<HoldersResult> {
    return this.read(`holders:${venueMarketId}:${limit}`, 'read', () => this.holders(venueMarketId, limit));
  }

  private read<T>(key: string, budget: VenueBudget, load: () => Promise<T>): Promise<T> {
    return this.o.reads ? this.o.reads.get(key, budget, load) : load();
  }

  private async wholeBook(venueMarketId: string, budget: VenueBudget): Promise<OrderBook> {
    const ref = await this.ref(venueMarketId);
    const clob = budget === 'order' ? (this.api.clobOrders ?? this.api.clob) : this.api.clob;
    const book = await aboutMarket(this.venue, venueMarketId, () =>
      clob.json({ path: '/book', query: { token_id: ref.yes } }, clobBook),
    );
    const dp = book.tick_size !== null && book.tick_size !== undefined ? tickDecimals(Number(book.tick_size)) : ref.dp;
    const levels = (rows: typeof book.bids) =>
      rows.map((l) => ({ price: decimalPrice(l.price, dp) ?? 0, size: contracts(l.size) }));
    const ts = Number(book.timestamp);
    return {
      venue: this.venue,
      venueMarketId,
      bids: bookSide(levels(book.bids), 'bids'),
      asks: bookSide(levels(book.asks), 'asks'),
      timestamp: new Date(Number.isFinite(ts) && ts > 0 ? ts : Date.now()),
    };
  }

  private async priceHistory(venueMarketId: string, query: PriceHistoryQuery): Promise<PriceHistory> {
    const ref = await this.ref(venueMarketId);
    const { history } = await this.api.clob.json(
      {
        path: '/prices-history',
        query: { market: ref.yes, startTs: query.from, endTs: query.to, fidelity: FIDELITY_MIN[query.interval] },
      },
      pricesHistory,
    );
    const points = history
      .filter((h) => h.t >= query.from && h.t <= query.to)
      .map((h) => ({ t: h.t, p: decimalPrice(h.p, Math.max(ref.dp, 4)) ?? 0 }))
      .sort((a, b) => a.t - b.t);
    return { kind: 'points', points: points.slice(-MAX_HISTORY_POINTS) };
  }

  private async publicTrades(venueMarketId: string, page: { limit: number; offset: number }): Promise<PublicTrade[]> {
    const ref = await this.ref(venueMarketId);
    if (page.limit <= 0) return [];
    const rows = await this.api.data.json(
      {
        path: '/trades',
        query: { market: venueMarketId, limit: page.limit, offset: page.offset, takerOnly: true },
      },
      dataTrades,
    );
    return rows.map((t) => this.toTrade(t, ref));
  }

  private async holders(venueMarketId: string, limit: number): Promise<HoldersResult> {
    const ref = await this.ref(venueMarketId);
    const groups = await this.api.data.json(
      { path: '/holders', query: { market: venueMarketId, limit: Math.max(1, limit) } },
      dataHolders,
    );
    const holders = groups.flatMap((g) =>
      g.holders.map((h) => ({
        wallet: h.proxyWallet.toLowerCase(),
        outcome:
          g.token === ref.no || (g.token !== ref.yes && h.outcomeIndex === 1) ? ('no' as const) : ('yes' as const),
        size: contracts(h.amount),
        avgPrice: null,
      })),
    );
    holders.sort((a, b) => b.size - a.size);
    return { supported: true, holders: holders.slice(0, Math.max(0, limit)) };
  }

  placeOrder(order: PlaceOrderRequest): Promise<PlaceOrderResult> {
    return Promise.reject(
      new VenueUnavailableError(
        this.venue,
        `venue_a orders (${order.clientOrderId}) are placed through the execution service, not this client`,
      ),
    );
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
    await Promise.all([
      this.api.gamma.close(),
      this.api.clob.close(),
      this.api.data.close(),
      this.api.clobOrders?.close(),
    ]);
  }

  private async recentTrades(reached: (t: PublicTrade) => boolean): Promise<PublicTrade[]> {
    const limit = this.o.tradesPageSize ?? 100;
    const out: PublicTrade[] = [];
    // Pages back while a whole page is new (more trades than a page since the last poll), three at most.
    for (let page = 0; page < 3; page++) {
      const rows = await this.api.data.json(
        { path: '/trades', query: { limit, offset: page * limit, takerOnly: true } },
        dataTrades,
      );
      const trades = rows.map((t) => this.toTrade(t, this.refs.get(t.conditionId) ?? null));
      out.push(...trades);
      if (rows.length < limit || trades.some(reached)) break;
    }
    return out;
  }

  private toTrade(t: DataTrade, ref: MarketRef | null): PublicTrade {
    const outcome = ref ? (t.asset === ref.no ? 'no' : 'yes') : t.outcomeIndex === 1 ? 'no' : 'yes';
    return {
      venue: this.venue,
      venueTradeId: venueATradeId(t.transactionHash, t.asset, t.side),
      venueMarketId: t.conditionId,
      venueTraderId: t.proxyWallet.toLowerCase(),
      side: t.side === 'BUY' ? 'buy' : 'sell',
      outcome,
      price: decimalPrice(t.price, Math.max(ref?.dp ?? 2, 4)) ?? 0,
      size: contracts(t.size),
      filledAt: new Date(t.timestamp * 1000),
    };
  }

  /** The market's outcome tokens: from the last listing, or looked up on Gamma. */
  private async ref(venueMarketId: string): Promise<MarketRef> {
    const known = this.refs.get(venueMarketId);
    if (known) return known;
    const rows = await this.api.gamma.json({ path: '/markets', query: { condition_ids: venueMarketId } }, gammaMarkets);
    const m = rows.find((r) => r.conditionId === venueMarketId);
    const ref = m ? this.remember(m) : null;
    if (!ref) throw new VenueMarketNotFoundError(this.venue, venueMarketId);
    return ref;
  }

  private remember(m: GammaMarket): MarketRef | null {
    if (m.clobTokenIds.length !== 2) return null;
    const ref = {
      yes: m.clobTokenIds[0],
      no: m.clobTokenIds[1],
      dp: tickDecimals(Number(m.orderPriceMinTickSize ?? 0.01)),
    };
    this.refs.set(m.conditionId, ref);
    return ref;
  }

  private toEvent(e: z.infer<typeof gammaEvent>): VenueEvent {
    const updatedAt = dateOr(e.updatedAt, new Date());
    const markets = (e.markets ?? [])
      .filter((m) => m.clobTokenIds.length === 2 && m.outcomes.length === 2)
      .map((m) => this.toMarket(e.id, m, updatedAt));
    return {
      venue: this.venue,
      venueEventId: e.id,
      title: e.title,
      description: e.description ?? '',
      category: categoryOf([e.category, ...(e.tags ?? []).flatMap((t) => [t.label, t.slug])]),
      closeTime: dateOr(e.endDate, null),
      updatedAt,
      markets,
      resolutionSource: e.resolutionSource || null,
    };
  }

  private toMarket(venueEventId: string, m: GammaMarket, eventUpdatedAt: Date): VenueMarket {
    const ref = this.remember(m) ?? { yes: '', no: '', dp: 2 };
    const dp = ref.dp;
    const status: MarketStatus =
      m.umaResolutionStatus === 'resolved' ? 'resolved' : m.closed || m.active === false ? 'closed' : 'active';
    const figure = (...vals: (string | number | null | undefined)[]): number | null => {
      for (const v of vals) {
        const n = v === null || v === undefined || v === '' ? NaN : Number(v);
        if (Number.isFinite(n)) return n;
      }
      return null;
    };
    return {
      venue: this.venue,
      venueMarketId: m.conditionId,
      venueEventId,
      title: m.question,
      description: m.description ?? null,
      slug: m.slug ?? null,
      status,
      outcomes: m.outcomes,
      endDate: dateOr(m.endDate, null),
      bestBid: status === 'active' ? decimalPrice(m.bestBid, dp) : null,
      bestAsk: status === 'active' ? decimalPrice(m.bestAsk, dp) : null,
      lastPrice: decimalPrice(m.lastTradePrice ?? m.outcomePrices[0], dp),
      volume: figure(m.volumeNum, m.volume),
      volume24h: figure(m.volume24hr),
      openInterest: figure(m.openInterest),
      liquidity: figure(m.liquidityNum, m.liquidity),
      iconUrl: m.icon ?? null,
      imageUrl: m.image ?? null,
      updatedAt: dateOr(m.updatedAt, eventUpdatedAt),
      outcomeTokenIds: { yes: ref.yes, no: ref.no },
      terms: { outcomeLabel: m.groupItemTitle || null, resolutionSource: m.resolutionSource || null },
    };
  }
}

/**
 * A venue_a trade's id. The Data API has none, and the websocket's print names no wallet: a taker's
 * match is settled in its own transaction, so its transaction, the token traded and the taker's
 * side name it, alike on the polled tape and on the market channel (so a trade seen on both is one).
 */
export function venueATradeId(transactionHash: string, token: string, side: string): string {
  return `${transactionHash.toLowerCase()}:${token}:${side.toUpperCase()}`;
}

function dateOr<T extends Date | null>(s: string | null | undefined, fallback: T): Date | T {
  if (!s) return fallback;
  const t = Date.parse(s);
  return Number.isNaN(t) ? fallback : new Date(t);
}
