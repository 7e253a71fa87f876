import type { PrismaClient } from '../../db/generated/client';
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
import { venueCall } from './venue-errors';
import type { ShownTrades } from './shown-trades';

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

  async orderBook(m: MarketView, depth: number): Promise<OrderBookView> {
    const book = await venueCall(() => this.venues[m.venue].getOrderBook(m.marketId, depth));
    const bid = book.bids[0]?.price;
    const ask = book.asks[0]?.price;
    const both = bid !== undefined && ask !== undefined;
    return {
      venue: m.venue,
      marketId: m.marketId,
      bids: book.bids,
      asks: book.asks,
      spread: both ? round6(ask - bid) : null,
      mid: both ? round6((ask + bid) / 2) : null,
      timestamp: book.timestamp,
    };
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

function toTradeView(t: PublicTrade, eventId: string): MarketTradeView {
  return { ...tradeFigures(t), eventId, traderId: t.venueTraderId, filledAt: t.filledAt };
}
