import {
  type HoldersResult,
  type OrderBook,
  type PriceHistory,
  type PriceHistoryQuery,
  type PublicTrade,
  type Venue,
  type VenueEvent,
  type VenueMarket,
} from '../venue.models';
import {
  type PlaceOrderRequest,
  type PlaceOrderResult,
  type TradeListener,
  type VenueClient,
  VenueMarketNotFoundError,
  VenueUnavailableError,
} from '../venue-client';
import { BOOK_BUCKET_S, bookLiquidity, yesBookAt } from './sim-book';
import { type SimCatalog, type SimMarket, statusAt } from './sim-catalog';
import type { WorldKeys } from './sim-keys';
import { ohlcvCandles, pricePoints } from './sim-history';
import { marketHolders } from './sim-holders';
import type { LiveTradeLog } from './sim-live';
import { fillAgainstBook } from './sim-orders';
import { outcomeTokenId } from './sim-tokens';
import { priceAt, roundToTick } from './sim-price';
import { recentTrades, type TradeCore, toPublicTrade, tradeStats } from './sim-trades';

/** Largest page `getPublicTrades` serves, and deepest offset it scans to. */
export const MAX_TRADES_PAGE = 1_000;
export const MAX_TRADES_OFFSET = 50_000;
/** Placed orders remembered for clientOrderId idempotency. */
const ORDER_MEMORY = 10_000;

/** What a simulated venue client shares with its world. */
export interface SimVenueContext {
  keys: WorldKeys;
  now(): number;
  isDown(venue: Venue): boolean;
  wallets: readonly string[];
  live: LiveTradeLog;
}

type Quote = Pick<
  VenueMarket,
  'bestBid' | 'bestAsk' | 'lastPrice' | 'volume' | 'volume24h' | 'openInterest' | 'liquidity'
>;

/**
 * One venue of the simulated world behind the {@link VenueClient} contract.
 * Reads are pure functions of (the world's keys, market, clock); the only state is the
 * live-trade log, subscribers and remembered orders.
 */
export class SimVenueClient implements VenueClient {
  private readonly listeners = new Set<TradeListener>();
  private readonly orders = new Map<string, PlaceOrderResult>();
  private quotes: { bucket: number; byId: Map<string, Quote> } | null = null;

  constructor(
    readonly venue: Venue,
    private readonly catalog: SimCatalog,
    private readonly ctx: SimVenueContext,
  ) {}

  async listEvents(): Promise<VenueEvent[]> {
    this.assertUp();
    const nowSec = this.ctx.now() / 1000;
    const bucket = Math.floor(nowSec / BOOK_BUCKET_S);
    const updatedAt = new Date(bucket * BOOK_BUCKET_S * 1000);
    return this.catalog.events[this.venue].map((e) => ({
      venue: e.venue,
      venueEventId: e.venueEventId,
      title: e.title,
      description: e.description,
      category: e.category,
      closeTime: new Date(e.closeTime),
      updatedAt,
      markets: e.markets.map((m) => this.toVenueMarket(m, nowSec, bucket, updatedAt)),
    }));
  }

  async getOrderBook(venueMarketId: string, depth?: number): Promise<OrderBook> {
    const m = this.market(venueMarketId);
    const nowMs = this.ctx.now();
    const book = yesBookAt(m, nowMs / 1000);
    const n = depth === undefined ? Infinity : Math.max(0, Math.floor(depth));
    return {
      venue: this.venue,
      venueMarketId,
      bids: book.bids.slice(0, n),
      asks: book.asks.slice(0, n),
      timestamp: new Date(nowMs),
    };
  }

  async getPriceHistory(venueMarketId: string, query: PriceHistoryQuery): Promise<PriceHistory> {
    const m = this.market(venueMarketId);
    const nowSec = this.ctx.now() / 1000;
    return this.venue === 'venue_a' ? pricePoints(m, query, nowSec) : ohlcvCandles(m, query, nowSec);
  }

  async getPublicTrades(venueMarketId: string, page: { limit: number; offset: number }): Promise<PublicTrade[]> {
    const m = this.market(venueMarketId);
    const nowMs = this.ctx.now();
    const limit = clampInt(page.limit, 0, MAX_TRADES_PAGE);
    const offset = clampInt(page.offset, 0, MAX_TRADES_OFFSET);
    const want = offset + limit;
    const history = recentTrades(m, nowMs / 1000, want);
    const live = this.ctx.live.newest(this.venue, venueMarketId);
    // Merge two newest-first lists; live trades win ties as they were reported later.
    const merged: (TradeCore | PublicTrade)[] = [];
    let i = 0;
    let j = 0;
    while (merged.length < want && (i < history.length || j < live.length)) {
      const h = history[i];
      const l = live[j];
      if (l && (!h || l.filledAt.getTime() >= h.t * 1000)) {
        j++;
        if (l.filledAt.getTime() <= nowMs) merged.push(l);
      } else if (h) {
        merged.push(h);
        i++;
      }
    }
    return merged.slice(offset, want).map((t) => ('venueTradeId' in t ? t : toPublicTrade(m, t, this.ctx)));
  }

  async getHolders(venueMarketId: string, limit: number): Promise<HoldersResult> {
    const m = this.market(venueMarketId);
    if (this.venue === 'venue_b')
      return { supported: false, reason: 'venue_b does not publish holder identities', holders: [] };
    return { supported: true, holders: marketHolders(m, this.ctx.wallets, this.ctx.now() / 1000, limit) };
  }

  async placeOrder(order: PlaceOrderRequest): Promise<PlaceOrderResult> {
    const m = this.market(order.venueMarketId);
    const previous = this.orders.get(order.clientOrderId);
    // Venues deduplicate on the client order id: a retry returns the original outcome.
    if (previous) return cloneResult(previous);
    const key = `order|${this.venue}|${order.clientOrderId}`;
    const venueOrderId = this.venue === 'venue_a' ? `0x${this.ctx.keys.hex(key, 64)}` : this.ctx.keys.uuid(key);
    const nowMs = this.ctx.now();
    const result: PlaceOrderResult =
      statusAt(m, nowMs / 1000) !== 'active'
        ? { venueOrderId, status: 'rejected', fills: [], reason: `market is ${statusAt(m, nowMs / 1000)}` }
        : {
            venueOrderId,
            ...fillAgainstBook(
              yesBookAt(m, nowMs / 1000),
              order,
              { tick: m.tick, wholeContracts: this.venue === 'venue_b' },
              new Date(nowMs),
            ),
          };
    this.orders.set(order.clientOrderId, result);
    if (this.orders.size > ORDER_MEMORY) {
      const oldest = this.orders.keys().next();
      if (!oldest.done) this.orders.delete(oldest.value);
    }
    return cloneResult(result);
  }

  onTrade(listener: TradeListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Delivers a live trade to subscribers; one failing listener does not starve the others. */
  emit(trade: PublicTrade): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(trade);
      } catch {
        // A subscriber's bug must not stop the feed for everyone else.
      }
    }
  }

  private assertUp(): void {
    if (this.ctx.isDown(this.venue))
      throw new VenueUnavailableError(this.venue, `${this.venue} is unavailable (simulated outage)`);
  }

  private market(venueMarketId: string): SimMarket {
    this.assertUp();
    const m = this.catalog.markets[this.venue].get(venueMarketId);
    if (!m) throw new VenueMarketNotFoundError(this.venue, venueMarketId);
    return m;
  }

  private toVenueMarket(m: SimMarket, nowSec: number, bucket: number, updatedAt: Date): VenueMarket {
    return {
      venue: m.venue,
      venueMarketId: m.venueMarketId,
      venueEventId: m.venueEventId,
      title: m.title,
      description: m.description,
      slug: m.slug,
      status: statusAt(m, nowSec),
      outcomes: ['Yes', 'No'],
      endDate: new Date(m.endDate),
      ...this.quote(m, nowSec, bucket),
      iconUrl: null,
      imageUrl: null,
      updatedAt,
      // venue_a's outcomes are on-chain tokens; venue_b has none.
      ...(m.venue === 'venue_a' && {
        outcomeTokenIds: { yes: outcomeTokenId(m.venueMarketId, 'yes'), no: outcomeTokenId(m.venueMarketId, 'no') },
      }),
    };
  }

  /** Market-level numbers, cached per book bucket so a listing agrees with `getOrderBook` in the same bucket. */
  private quote(m: SimMarket, nowSec: number, bucket: number): Quote {
    if (this.quotes?.bucket !== bucket) this.quotes = { bucket, byId: new Map() };
    const cached = this.quotes.byId.get(m.venueMarketId);
    if (cached) return cached;
    const book = yesBookAt(m, nowSec);
    const stats = tradeStats(m, nowSec);
    const hours = Math.max(0, (Math.min(nowSec, m.tradingEnd) - m.listedAt) / 3_600);
    const whole = m.venue === 'venue_b';
    const round = (x: number) => (whole ? Math.round(x) : Math.round(x * 100) / 100);
    const volume = round(Math.max(stats.volume24h, m.tradesPerHour * m.meanSize * hours));
    const settled = m.status === 'resolved' ? priceAt(m.process, m.tradingEnd) : null;
    const q: Quote = {
      bestBid: book.bids[0]?.price ?? null,
      bestAsk: book.asks[0]?.price ?? null,
      lastPrice: settled ?? stats.lastYesPrice ?? roundToTick(priceAt(m.process, nowSec), m.tick),
      volume,
      volume24h: whole ? Math.round(stats.volume24h) : stats.volume24h,
      openInterest: round(volume * (0.12 + ((m.seed >>> 8) % 100) / 400)),
      liquidity: bookLiquidity(book),
    };
    this.quotes.byId.set(m.venueMarketId, q);
    return q;
  }
}

function clampInt(x: number, lo: number, hi: number): number {
  return Number.isFinite(x) ? Math.min(hi, Math.max(lo, Math.floor(x))) : lo;
}

function cloneResult(r: PlaceOrderResult): PlaceOrderResult {
  return { ...r, fills: r.fills.map((f) => ({ ...f, filledAt: new Date(f.filledAt) })) };
}
