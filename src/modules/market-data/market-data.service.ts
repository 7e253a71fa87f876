import type { Prisma, PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { SignedCursor } from '../../http/signed-cursor';
import type { ReadMemo } from '../../infra';
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
 * events in identifier order (keyset pages), and category counts. The catalog
 * changes only when it is synced, so reads are memoized per process and
 * dropped on the catalog-changed message (see `invalidate`).
 */
export class MarketDataService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly cursors: SignedCursor,
    private readonly memo: ReadMemo,
  ) {}

  invalidate(): void {
    this.memo.invalidate();
  }

  markets(q: MarketListQuery): Promise<CursorPage<MarketDataMarketView>> {
    return this.memo.get(
      JSON.stringify(['markets', q.venue, q.status, q.minVolume, q.category, q.cursor, q.limit]),
      () => this.marketsUncached(q),
    );
  }

  private async marketsUncached(q: MarketListQuery): Promise<CursorPage<MarketDataMarketView>> {
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

  market(venue: Venue, venueMarketId: string): Promise<MarketDataMarketView> {
    return this.memo.get(JSON.stringify(['market', venue, venueMarketId]), async () => {
      const row = await this.prisma.market.findUnique({ where: { venue_venueMarketId: { venue, venueMarketId } } });
      if (!row) throw AppError.notFound(`${venue} market ${venueMarketId}`);
      return toMarketDataMarket(row);
    });
  }

  events(q: EventListQuery): Promise<CursorPage<MarketDataEventView>> {
    return this.memo.get(JSON.stringify(['events', q.category, q.cursor, q.limit]), async () => {
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
    });
  }

  /** Events per category, largest first. */
  categories(): Promise<CategoryCountView[]> {
    return this.memo.get('categories', async () => {
      const groups = await this.prisma.coreEvent.groupBy({ by: ['category'], _count: { _all: true } });
      return groups
        .map((g) => ({ category: g.category, count: g._count._all }))
        .sort((a, b) => b.count - a.count || (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
    });
  }
}
