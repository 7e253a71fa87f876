import type { Prisma, PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { SignedCursor } from '../../http/signed-cursor';
import type { MarketStatus, Venue } from '../../venues/venue.models';
import { coreEventFields } from '../events/events.models';
import { keysetPageById, mapPage, type CursorPage } from './cursor-page';
import {
  toMarketDataMarket,
  type CategoryCountView,
  type MarketDataEventView,
  type MarketDataMarketView,
} from './market-data.models';

export interface MarketListQuery {
  venue?: Venue;
  status?: MarketStatus;
  minVolume?: number;
  category?: string;
  cursor?: string;
  limit: number;
}

export interface EventListQuery {
  category?: string;
  cursor?: string;
  limit: number;
}

/**
 * The market-data surface's reads of the catalog: venue markets and core
 * events in identifier order (keyset pages), and category counts. Only
 * resolvers read them: their answers are shared through the operation
 * pipeline's answer cache (the market-data routes are cached until the catalog
 * changes), so nothing is memoized here.
 */
export class MarketDataService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly cursors: SignedCursor,
  ) {}

  async markets(q: MarketListQuery): Promise<CursorPage<MarketDataMarketView>> {
    const where: Prisma.MarketWhereInput = {
      ...(q.venue !== undefined && { venue: q.venue }),
      ...(q.status !== undefined && { status: q.status }),
      ...(q.minVolume !== undefined && { volume: { gte: q.minVolume } }),
      ...(q.category !== undefined && { coreEvent: { category: q.category } }),
    };
    const page = await keysetPageById(
      this.cursors,
      this.prisma,
      { model: this.prisma.market, where },
      {
        list: 'markets',
        filters: {
          venue: q.venue ?? null,
          status: q.status ?? null,
          minVolume: q.minVolume ?? null,
          category: q.category ?? null,
        },
        cursor: q.cursor,
        limit: q.limit,
      },
    );
    return mapPage(page, toMarketDataMarket);
  }

  async market(venue: Venue, venueMarketId: string): Promise<MarketDataMarketView> {
    const row = await this.prisma.market.findUnique({ where: { venue_venueMarketId: { venue, venueMarketId } } });
    if (!row) throw AppError.notFound(`${venue} market ${venueMarketId}`);
    return toMarketDataMarket(row);
  }

  async events(q: EventListQuery): Promise<CursorPage<MarketDataEventView>> {
    const where: Prisma.CoreEventWhereInput = q.category === undefined ? {} : { category: q.category };
    const page = await keysetPageById(
      this.cursors,
      this.prisma,
      { model: this.prisma.coreEvent, where },
      {
        list: 'events',
        filters: { category: q.category ?? null },
        cursor: q.cursor,
        limit: q.limit,
      },
    );
    // An events-list item is the fields every view of a core event shows.
    return mapPage(page, coreEventFields);
  }

  /** Events per category, largest first. */
  async categories(): Promise<CategoryCountView[]> {
    const groups = await this.prisma.coreEvent.groupBy({ by: ['category'], _count: { _all: true } });
    return groups
      .map((g) => ({ category: g.category, count: g._count._all }))
      .sort((a, b) => b.count - a.count || (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
  }
}
