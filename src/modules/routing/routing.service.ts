import type { PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { Logger } from '../../http/logger';
import { PeriodicTask } from '../../infra';
import type { OrderBook, OutcomeSide, Side, Venue } from '../../venues/venue.models';
import type { MarketView } from '../events/events.models';
import type { EventsService } from '../events/events.service';
import { amountToMicros, microsToNumber } from '../../money';
import { findCounterpart, pairMarkets } from '../markets/market-matching';
import type { MarketBooks } from './market-books';
import { priceBook, toQuote, type FeeSchedule, type FillTarget, type Quote } from './order-book.math';
import { ROUTING_LIMITS as L } from './routing.limits';
import {
  betterQuote,
  toRouteIntentView,
  type CostBestView,
  type CostMarketView,
  type CostRundownView,
  type CostVenueView,
  type RouteIntentView,
} from './routing.models';
import { round6 } from '../../money/money';

export interface CostRundownQuery {
  coreId: string;
  /** Whole contracts, or … */
  size?: number;
  /** … USD to spend (buys) or receive (sells): exactly one of the two. */
  amountUsd?: number;
  side?: Side;
}

export interface RouteRequest {
  coreId: string;
  userId: string;
  accountId: string;
  /** Contracts (default 1). */
  size?: number;
  venue?: Venue;
  /** The venue's market id, or `venue:marketId`. */
  marketId?: string;
  side?: Side;
  outcome?: OutcomeSide;
}

export interface RoutingOptions {
  fees: FeeSchedule;
  routeTtlSeconds: number;
  now?: () => number;
  logger?: Logger;
}

const VENUE_ORDER: Venue[] = ['venue_a', 'venue_b'];

function checkId(field: string, value: string): string {
  const v = value.trim();
  if (v === '' || v.length > L.id.max) throw AppError.badRequest(field, `must be 1 to ${L.id.max} characters`);
  return v;
}

/** `/route`'s 404: the interface's "no route found", with why. */
function noRoute(why: string): AppError {
  return new AppError('not_found', `no route found: ${why}`);
}

/** The rundown's target: exactly one of `size` (whole contracts) and `amount_usd`. */
function rundownTarget(q: CostRundownQuery): FillTarget {
  if (q.size !== undefined && q.amountUsd !== undefined)
    throw AppError.badRequest('size', 'give either size or amount_usd, not both');
  if (q.size !== undefined) {
    if (!Number.isInteger(q.size) || q.size < L.size.min || q.size > L.size.max) {
      throw AppError.badRequest('size', `must be an integer from ${L.size.min} to ${L.size.max}`);
    }
    return { contracts: q.size };
  }
  if (q.amountUsd === undefined) throw AppError.badRequest('size', 'size or amount_usd is required');
  amountToMicros(q.amountUsd, L.amountUsd, 'amount_usd');
  return { usd: q.amountUsd };
}

/**
 * Cost preview across venues and routing: walks each venue's current book for
 * an order and picks the venue with the best all-in price (fees included).
 */
export class RoutingService {
  private readonly now: () => number;
  private readonly purge = new PeriodicTask(
    () => this.purgeExpired(),
    (err: unknown) => this.opts.logger?.error({ err }, 'route intent purge failed'),
  );

  constructor(
    private readonly prisma: PrismaClient,
    private readonly events: EventsService,
    private readonly books: MarketBooks,
    private readonly opts: RoutingOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  /** Every open market of the event on both venues, both outcomes, and the best venue per question. */
  async costRundown(q: CostRundownQuery): Promise<CostRundownView> {
    const target = rundownTarget(q);
    const side = q.side ?? 'buy';
    const event = await this.events.get(checkId('core_id', q.coreId));
    const open = await this.openMarkets(event.id);
    const books = await this.books.many(open);
    const priced: { market: MarketView; view: CostMarketView }[] = [];
    const venues: CostVenueView[] = VENUE_ORDER.map((venue) => {
      const mine = open.map((m, i) => ({ m, book: books[i] })).filter((x) => x.m.venue === venue);
      const failed = mine.filter((x) => x.book instanceof AppError);
      for (const x of mine) {
        if (x.book instanceof AppError) continue;
        const quoteFor = (outcome: OutcomeSide) =>
          toQuote(priceBook(venue, x.book as OrderBook, side, outcome, target, { fees: this.opts.fees }));
        priced.push({
          market: x.m,
          view: { venue, marketId: x.m.marketId, title: x.m.title, yes: quoteFor('yes'), no: quoteFor('no') },
        });
      }
      const failedMarkets = failed.map((x) => x.m.marketId);
      const reason = failed.length > 0 ? (failed[0].book as AppError).message : null;
      if (mine.length === 0) return { venue, status: 'no_open_markets', markets: 0, failedMarkets, reason };
      const status = failed.length === 0 ? 'ok' : failed.length === mine.length ? 'unavailable' : 'partial';
      return { venue, status, markets: mine.length, failedMarkets, reason };
    });
    if (open.length > 0 && priced.length === 0) {
      throw AppError.unavailable('cost engine unavailable: no venue could give an order book for this event');
    }
    return {
      coreId: event.id,
      eventTitle: event.title,
      side,
      size: 'contracts' in target ? target.contracts : null,
      amountUsd: 'usd' in target ? target.usd : null,
      venues,
      markets: priced.map((p) => p.view),
      best: bestPerQuestion(priced),
      generatedAt: new Date(this.now()),
    };
  }

  /** Picks a venue and market for an order and stores the quote as an intent. */
  async route(r: RouteRequest): Promise<RouteIntentView> {
    const userId = checkId('userId', r.userId);
    const accountId = checkId('accountId', r.accountId);
    const size = r.size ?? L.routeSize.default;
    amountToMicros(size, L.routeSize, 'size');
    const side = r.side ?? 'buy';
    const outcome = r.outcome ?? 'yes';
    const event = await this.events.get(checkId('coreId', r.coreId));
    const all = await this.openMarkets(event.id, true);
    let candidates = this.candidates(all, r);
    // venue_b trades whole contracts only.
    if (!Number.isInteger(size)) candidates = candidates.filter((m) => m.venue !== 'venue_b');
    if (candidates.length === 0) throw noRoute('no open market for this order');
    const books = await this.books.many(candidates);
    // The interface answers /route with 200, 400 or 404: no venue priceable is "no route found", with the reason.
    const unreadable = books.find((b): b is AppError => b instanceof AppError);
    if (unreadable && books.every((b) => b instanceof AppError))
      throw noRoute(`no candidate venue could be priced (${unreadable.message})`);
    const priced = candidates.flatMap((m, i) => {
      const book = books[i];
      if (book instanceof AppError) return [];
      const q = priceBook(m.venue, book, side, outcome, { contracts: size }, { fees: this.opts.fees });
      return [{ m, q, view: toQuote(q) }];
    });
    const best = priced
      .filter((p) => p.q.complete && p.q.filled > 0n)
      .reduce<(typeof priced)[number] | null>(
        (acc, p) => (acc === null || betterQuote(acc.view, p.view) === p.view ? p : acc),
        null,
      );
    if (!best) throw noRoute(`no open market has the depth for ${size} contracts`);
    const row = await this.prisma.routeIntent.create({
      data: {
        userId,
        accountId,
        coreEventId: event.id,
        venue: best.m.venue,
        marketId: best.m.id,
        venueMarketId: best.m.marketId,
        outcome,
        side,
        sizeMicros: best.q.filled,
        quotedPriceMicros: best.q.avgPrice!,
        worstPriceMicros: best.q.worstPrice!,
        feesMicros: best.q.fees,
        allInCostMicros: best.q.allIn,
        createdAt: new Date(this.now()),
        expiresAt: new Date(this.now() + this.opts.routeTtlSeconds * 1000),
      },
    });
    const alternatives = priced
      .filter((p) => p !== best)
      .map((p) => ({
        venue: p.m.venue,
        marketId: p.m.marketId,
        complete: p.q.complete,
        allInPrice: p.view.allInPrice,
        allInCost: microsToNumber(p.q.allIn),
      }));
    return toRouteIntentView(row, {
      marketTitle: best.m.title,
      mid: best.view.mid,
      notional: best.q.notional,
      alternatives,
    });
  }

  /**
   * Deletes the route intents whose quote has expired and that no order
   * consumed (nothing reads them after expiry); answers how many went.
   */
  async purgeExpired(): Promise<number> {
    const r = await this.prisma.routeIntent.deleteMany({
      where: { expiresAt: { lt: new Date(this.now()) }, orderId: null },
    });
    return r.count;
  }

  /** Purges expired intents every `everyMs` (0: never). */
  start(everyMs: number): void {
    this.purge.start(everyMs);
  }

  async stop(): Promise<void> {
    await this.purge.stop();
  }

  /** The event's open markets (catalog status), or every market when `includeClosed`. */
  private async openMarkets(eventId: string, includeClosed = false): Promise<MarketView[]> {
    const [markets] = await this.events.marketsByEventIds([eventId]);
    return (markets ?? []).filter((m) => includeClosed || m.status === 'active').sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /**
   * The markets a route may take: the caller's market; else, on the caller's
   * venue or both, the event's headline question (its busiest open market)
   * and the same question on the other venue.
   */
  private candidates(all: MarketView[], r: RouteRequest): MarketView[] {
    const open = all.filter((m) => m.status === 'active');
    if (r.marketId !== undefined) {
      const ref = checkId('marketId', r.marketId);
      const m = all.find((x) => (x.id === ref || x.marketId === ref) && (r.venue === undefined || x.venue === r.venue));
      if (!m)
        throw AppError.badRequest('marketId', `is not a market of event ${r.coreId}${r.venue ? ` on ${r.venue}` : ''}`);
      return m.status === 'active' ? [m] : [];
    }
    const pool = r.venue === undefined ? open : open.filter((m) => m.venue === r.venue);
    if (pool.length === 0) return [];
    const headline = [...pool].sort((a, b) => (b.volume24h ?? -1) - (a.volume24h ?? -1) || (a.id < b.id ? -1 : 1))[0];
    const other = r.venue === undefined ? findCounterpart(headline, open) : null;
    return other ? [headline, other.market] : [headline];
  }
}

/** Groups priced markets into questions (paired across venues) and picks the best venue per outcome. */
function bestPerQuestion(priced: { market: MarketView; view: CostMarketView }[]): CostBestView[] {
  const byId = new Map(priced.map((p) => [p.market.id, p]));
  const pairs = pairMarkets(
    priced.map((p) => p.market),
    'venue_a',
    'venue_b',
  );
  const paired = new Set(pairs.flatMap((p) => [p.a.id, p.b.id]));
  const groups: CostMarketView[][] = [
    ...pairs.map((p) => [byId.get(p.a.id)!.view, byId.get(p.b.id)!.view]),
    ...priced.filter((p) => !paired.has(p.market.id)).map((p) => [p.view]),
  ];
  const out: CostBestView[] = [];
  for (const group of groups) {
    for (const outcome of ['yes', 'no'] as const) {
      const quotes = group.map((g) => ({ g, q: g[outcome] }));
      const best = quotes.reduce<{ g: CostMarketView; q: Quote } | null>(
        (acc, x) => (acc === null ? (betterQuote(x.q, null) ? x : null) : betterQuote(acc.q, x.q) === x.q ? x : acc),
        null,
      );
      if (!best) continue;
      const alt = quotes.find((x) => x !== best) ?? null;
      const advantage =
        alt && alt.q.allInPrice !== null && best.q.allInPrice !== null
          ? round6(best.q.side === 'buy' ? alt.q.allInPrice - best.q.allInPrice : best.q.allInPrice - alt.q.allInPrice)
          : null;
      out.push({
        title: best.g.title,
        outcome,
        venue: best.g.venue,
        marketId: best.g.marketId,
        contracts: best.q.contracts,
        complete: best.q.complete,
        allInUsd: best.q.allInUsd,
        allInPrice: best.q.allInPrice,
        alternative: alt
          ? { venue: alt.g.venue, marketId: alt.g.marketId, complete: alt.q.complete, allInPrice: alt.q.allInPrice }
          : null,
        advantagePerContract: advantage,
      });
    }
  }
  return out;
}
