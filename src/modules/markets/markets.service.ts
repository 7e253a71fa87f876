import type { PrismaClient } from '../../db/generated/client';
import type { AppError } from '../../errors/app-error';
import type { ReadMemo } from '../../infra';
import { round6 } from '../../money/money';
import type { PublicTrade, Venue } from '../../venues/venue.models';
import type { VenueClient } from '../../venues/venue-client';
import { toEventView, toMarketView, yesPrice, type EventView, type MarketView } from '../events/events.models';
import { findCounterpart } from './market-matching';
import { MARKETS_LIMITS } from './markets.limits';
import { tradeFigures } from '../trades/trades.models';
import type {
  CounterpartView,
  HolderSummaryView,
  HoldersView,
  MarketTradeView,
  OrderBookView,
  TradePageView,
} from './markets.models';
import { fromVenueError, venueCall } from './venue-errors';
import type { ShownTrades } from './shown-trades';
import type { MarketBookStore } from '../market-streams/book-store';
import type { BookSnapshot } from '../market-streams/market-streams.models';

/** A market a book is asked for. */
export interface BookRef {
  venue: Venue;
  marketId: string;
}

/**
 * The market screens: markets and their events from the database catalog
 * (batched for the loaders), books, trades and holders from the venue
 * clients, and the cross-venue counterpart of a market. Catalog reads go
 * through a per-process memo, as the events' do: the catalog changes only
 * when it is synced, which publishes the catalog-changed topic.
 */
export class MarketsService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly venues: Readonly<Record<Venue, VenueClient>>,
    private readonly memo: ReadMemo,
    /** Records the trades a page lists, so each can be commented on; unset: nothing is recorded. */
    private readonly shown?: ShownTrades,
    /** The books the venue streams keep; unset: every book is a venue read. */
    private readonly books?: { store: MarketBookStore; sources: Readonly<Record<Venue, 'sim' | 'live'>> },
  ) {}

  /** Drops memoized catalog reads (on a catalog change). */
  invalidate(): void {
    this.memo.invalidate();
  }

  /** Markets by internal id (`venue:marketId`), in key order, null when unknown (one query). */
  marketsByIds(ids: readonly string[]): Promise<(MarketView | null)[]> {
    return this.memo.get(`markets:${ids.join(',')}`, async () => {
      const rows = await this.prisma.market.findMany({ where: { id: { in: [...ids] } } });
      const byId = new Map(rows.map((r) => [r.id, toMarketView(r)]));
      return ids.map((id) => byId.get(id) ?? null);
    });
  }

  /** Core events by id, in key order, null when unknown (one query). */
  eventsByIds(ids: readonly string[]): Promise<(EventView | null)[]> {
    return this.memo.get(`events:${ids.join(',')}`, async () => {
      const rows = await this.prisma.coreEvent.findMany({ where: { id: { in: [...ids] } } });
      const byId = new Map(rows.map((r) => [r.id, toEventView(r)]));
      return ids.map((id) => byId.get(id) ?? null);
    });
  }

  orderBook(m: MarketView, depth: number): Promise<OrderBookView> {
    return this.bookOf(m, depth);
  }

  /**
   * Books of many markets, in the order asked, each from the book a venue stream keeps when one
   * does (no venue call), else read from the venue through its shared read cache (one call per
   * market per cache period, however many ask). A market that fails is its error in its place.
   * `beforeVenueRead` runs before each venue read after the first (a per-client budget).
   */
  async orderBooks(
    refs: readonly BookRef[],
    depth: number,
    beforeVenueRead?: () => Promise<void>,
  ): Promise<(OrderBookView | AppError)[]> {
    let reads = 0;
    return Promise.all(
      refs.map((ref) =>
        this.bookOf(ref, depth, async () => {
          if (reads++ > 0) await beforeVenueRead?.();
        }).catch((err: unknown) => fromVenueError(err)),
      ),
    );
  }

  /** The YES book: the stream's when a stream keeps it live with its levels (a live venue), else the venue's. */
  private async bookOf(ref: BookRef, depth: number, beforeRead?: () => Promise<void>): Promise<OrderBookView> {
    // The simulated books cost no call: they are read as they are (a pure function of the clock).
    if (this.books && this.books.sources[ref.venue] === 'live') {
      const snap = await this.books.store.snapshot(ref.venue, ref.marketId, depth, true);
      // A book the stream keeps live is the book as of now.
      if (snap) return bookView(ref, snap.bids, snap.asks, new Date(), snap);
    }
    await beforeRead?.();
    const book = await venueCall(() => this.venues[ref.venue].getOrderBook(ref.marketId, depth));
    return bookView(ref, book.bids, book.asks, book.timestamp, null);
  }

  /**
   * Public trades newest first; one extra trade is fetched to know whether more follow. The trades
   * listed are recorded as shown, so each listed id can be commented on.
   */
  async trades(m: MarketView, limit: number, offset: number): Promise<TradePageView> {
    const rows = await venueCall(() => this.venues[m.venue].getPublicTrades(m.marketId, { limit: limit + 1, offset }));
    await this.shown?.record(rows.slice(0, limit));
    return {
      data: rows.slice(0, limit).map((t) => toTradeView(t, m.eventId)),
      limit,
      offset,
      hasMore: rows.length > limit,
    };
  }

  async holders(m: MarketView, limit: number): Promise<HoldersView> {
    const r = await venueCall(() => this.venues[m.venue].getHolders(m.marketId, limit));
    return {
      venue: m.venue,
      marketId: m.marketId,
      supported: r.supported,
      reason: r.supported ? null : r.reason,
      limit,
      data: r.holders.map((h) => ({ wallet: h.wallet, outcome: h.outcome, size: h.size, avgPrice: h.avgPrice })),
    };
  }

  /** Counts and sizes over the venue's largest holders, and the top few. */
  async holderSummary(m: MarketView): Promise<HolderSummaryView> {
    const h = await this.holders(m, MARKETS_LIMITS.holders.max);
    const sum = (xs: { size: number }[]) => round6(xs.reduce((s, x) => s + x.size, 0));
    const yes = h.data.filter((x) => x.outcome === 'yes');
    const no = h.data.filter((x) => x.outcome === 'no');
    const top = h.data.slice(0, MARKETS_LIMITS.summaryTopHolders);
    const total = sum(h.data);
    return {
      supported: h.supported,
      reason: h.reason,
      holders: h.data.length,
      yesHolders: yes.length,
      noHolders: no.length,
      yesSize: sum(yes),
      noSize: sum(no),
      topShare: total > 0 ? round6(sum(top) / total) : null,
      top,
    };
  }

  /** The same question on the other venue, among the markets of the core event, with the price gap. */
  counterpart(m: MarketView, siblings: readonly MarketView[]): CounterpartView | null {
    const match = findCounterpart(m, siblings);
    if (!match) return null;
    const mine = yesPrice(m);
    const theirs = yesPrice(match.market);
    return {
      market: match.market,
      similarity: match.similarity,
      priceDifference: mine === null || theirs === null ? null : round6(mine - theirs),
    };
  }
}

function bookView(
  ref: BookRef,
  bids: OrderBookView['bids'],
  asks: OrderBookView['asks'],
  timestamp: Date,
  snap: BookSnapshot | null,
): OrderBookView {
  const bid = bids[0]?.price;
  const ask = asks[0]?.price;
  const both = bid !== undefined && ask !== undefined;
  return {
    venue: ref.venue,
    marketId: ref.marketId,
    bids,
    asks,
    spread: both ? round6(ask - bid) : null,
    mid: both ? round6((ask + bid) / 2) : null,
    timestamp,
    source: snap ? 'stream' : 'venue',
    seq: snap?.seq ?? null,
  };
}

function toTradeView(t: PublicTrade, eventId: string): MarketTradeView {
  return { ...tradeFigures(t), eventId, traderId: t.venueTraderId, filledAt: t.filledAt };
}
