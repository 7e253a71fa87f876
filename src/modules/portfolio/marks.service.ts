import type { Cache } from '../../infra';
import { type OrderBook, type Venue } from '../../venues/venue.models';
import { VenueUnavailableError, type VenueClient } from '../../venues/venue-client';
import { yesPrice, type MarketView } from '../events/events.models';
import { LAST_MARK_TTL_MS, type MarkSource } from './portfolio.limits';
import { toMicros } from '../../money/money';

/** The YES mark of one venue market, micro-USD per contract. */
export interface YesMark {
  venue: Venue;
  /** The venue's market id. */
  marketId: string;
  /** Null when no price is known at all (source `none`). */
  yes: bigint | null;
  source: MarkSource;
  /** When the price was observed: now for `live`, earlier for `last_known`. */
  asOf: Date | null;
  /** Why the live mark is missing (venue down, empty book, unknown market); null when live. */
  reason: string | null;
}

/** Looks up catalog markets by internal id (`venue:marketId`), in key order: the oldest fallback. */
export type CatalogLookup = (keys: readonly string[]) => Promise<(MarketView | null)[]>;

interface Remembered {
  yes: string;
  at: string;
}

/** Mid of the best levels (half up), or the one side that quotes; null on an empty book. */
export function bookMid(book: Pick<OrderBook, 'bids' | 'asks'>): bigint | null {
  const bid = book.bids[0];
  const ask = book.asks[0];
  if (bid && ask) return (toMicros(bid.price) + toMicros(ask.price) + 1n) / 2n;
  if (bid) return toMicros(bid.price);
  if (ask) return toMicros(ask.price);
  return null;
}

function parseKey(key: string): { venue: Venue; marketId: string } {
  const i = key.indexOf(':');
  return { venue: key.slice(0, i) as Venue, marketId: key.slice(i + 1) };
}

/**
 * Marks positions to market: the YES mid of the venue's current book (one
 * top-of-book request per market, all markets of a venue in parallel). A venue
 * that is down, or a book with no quotes, does not fail the portfolio: the
 * market is marked with its last known price (the last live mid seen by any
 * process, kept in the shared cache; else the catalog's stored quote) and the
 * mark says so (`last_known` with its time and the reason). No SQL runs on the
 * live path; the catalog fallback goes through the caller's loader.
 */
export class MarksService {
  constructor(
    private readonly venues: Readonly<Record<Venue, VenueClient>>,
    private readonly cache: Cache,
    private readonly now: () => number = Date.now,
  ) {}

  /** Marks of `venue:marketId` keys, in key order. */
  async yesMarks(keys: readonly string[], catalog: CatalogLookup): Promise<YesMark[]> {
    const at = new Date(this.now());
    const live = await Promise.all(keys.map((k) => this.live(k, at)));
    const missing = keys.filter((_, i) => live[i].yes === null);
    if (missing.length === 0) return live;
    const remembered = await Promise.all(
      missing.map((k) => this.cache.get<Remembered>(cacheKey(k)).catch(() => undefined)),
    );
    const stillMissing = missing.filter((_, i) => remembered[i] === undefined);
    const fromCatalog = stillMissing.length > 0 ? await catalog(stillMissing) : [];
    const fallback = new Map<string, { yes: bigint; at: Date }>();
    missing.forEach((k, i) => {
      const r = remembered[i];
      if (r) fallback.set(k, { yes: BigInt(r.yes), at: new Date(r.at) });
    });
    stillMissing.forEach((k, i) => {
      const m = fromCatalog[i];
      const price = m ? yesPrice(m) : null;
      if (m && price !== null) fallback.set(k, { yes: toMicros(price), at: m.updatedAt });
    });
    return live.map((mark, i) => {
      if (mark.yes !== null) return mark;
      const f = fallback.get(keys[i]);
      return f ? { ...mark, yes: f.yes, source: 'last_known', asOf: f.at } : mark;
    });
  }

  private async live(key: string, at: Date): Promise<YesMark> {
    const { venue, marketId } = parseKey(key);
    const none = (reason: string): YesMark => ({ venue, marketId, yes: null, source: 'none', asOf: null, reason });
    const client = this.venues[venue];
    if (!client) return none(`unknown venue ${venue}`);
    let book: OrderBook;
    try {
      book = await client.getOrderBook(marketId, 1);
    } catch (err) {
      return none(
        err instanceof VenueUnavailableError
          ? `${venue} is unavailable`
          : `${venue} could not give the book of ${marketId}`,
      );
    }
    const yes = bookMid(book);
    if (yes === null) return none(`${venue} book of ${marketId} has no quotes`);
    await this.cache
      .set<Remembered>(cacheKey(key), { yes: yes.toString(), at: at.toISOString() }, LAST_MARK_TTL_MS)
      .catch(() => undefined);
    return { venue, marketId, yes, source: 'live', asOf: at, reason: null };
  }
}

function cacheKey(key: string): string {
  return `portfolio:mark:${key}`;
}
