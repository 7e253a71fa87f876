import type { Prisma, PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { ReadMemo } from '../../infra';
import type { MarketStatus, SourceType, Venue } from '../../venues/venue.models';
import type { DiscoverSort, MarketSort } from './events.limits';
import { toEventView, toMarketView, type EventView, type MarketView, type Page } from './events.models';

export interface ListEventsQuery {
  page: number;
  pageSize: number;
  category?: string;
  sourceType?: SourceType;
}

export interface DiscoverEventsQuery {
  page: number;
  pageSize: number;
  search?: string;
  category?: string;
  venue?: Venue;
  sort: DiscoverSort;
}

export interface MarketFilter {
  venue?: Venue;
  openOnly?: boolean;
  sort?: MarketSort;
}

const OPEN: MarketStatus = 'active';

/**
 * Core events and their markets, read from the database the ingestion fills.
 * Reads go through a per-process memo: the catalog changes only when it is
 * synced, which publishes {@link CATALOG_CHANGED_TOPIC} to every process.
 */
export class EventsService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly memo: ReadMemo,
  ) {}

  /** Drops memoized reads (on a catalog change). */
  invalidate(): void {
    this.memo.invalidate();
  }

  list(q: ListEventsQuery): Promise<Page<EventView>> {
    return this.memo.get(`list:${q.page}:${q.pageSize}:${q.category ?? ''}:${q.sourceType ?? ''}`, () =>
      this.listUncached(q),
    );
  }

  private async listUncached(q: ListEventsQuery): Promise<Page<EventView>> {
    const where: Prisma.CoreEventWhereInput = {
      ...(q.category !== undefined && { category: q.category }),
      ...(q.sourceType !== undefined && { sourceType: q.sourceType }),
    };
    return this.page(where, [{ activityScore: 'desc' }, { id: 'asc' }], q.page, q.pageSize);
  }

  discover(q: DiscoverEventsQuery): Promise<Page<EventView>> {
    const key = JSON.stringify([
      'discover',
      q.page,
      q.pageSize,
      q.search ?? '',
      q.category ?? '',
      q.venue ?? '',
      q.sort,
    ]);
    return this.memo.get(key, () => this.discoverUncached(q));
  }

  private async discoverUncached(q: DiscoverEventsQuery): Promise<Page<EventView>> {
    // Prisma's `contains` is a LIKE pattern: escape its wildcards (and the escape character) so they match themselves.
    const search = q.search?.trim().replace(/[\\%_]/g, '\\$&');
    const where: Prisma.CoreEventWhereInput = {
      ...(q.category !== undefined && { category: q.category }),
      ...(q.venue !== undefined && { markets: { some: { venue: q.venue } } }),
      ...(search && {
        OR: [
          { title: { contains: search, mode: 'insensitive' } },
          { description: { contains: search, mode: 'insensitive' } },
          { markets: { some: { title: { contains: search, mode: 'insensitive' } } } },
        ],
      }),
    };
    return this.page(where, discoverOrder(q.sort), q.page, q.pageSize);
  }

  /** By id or slug (the interface identifies events by either). */
  get(ref: string): Promise<EventView> {
    return this.memo.get(`event:${ref}`, () => this.getUncached(ref));
  }

  private async getUncached(ref: string): Promise<EventView> {
    const row = await this.prisma.coreEvent.findFirst({ where: { OR: [{ id: ref }, { slug: ref }] } });
    if (!row) throw AppError.notFound(`event ${ref}`);
    return toEventView(row);
  }

  async marketsOf(ref: string, filter: MarketFilter): Promise<MarketView[]> {
    const event = await this.get(ref);
    const [markets] = await this.marketsByEventIds([event.id]);
    return filterMarkets(markets, filter);
  }

  /** All markets of many events in one query (the loader's batch function). */
  marketsByEventIds(eventIds: readonly string[]): Promise<MarketView[][]> {
    return this.memo.get(`markets:${eventIds.join(',')}`, () => this.marketsUncached(eventIds));
  }

  private async marketsUncached(eventIds: readonly string[]): Promise<MarketView[][]> {
    const rows = await this.prisma.market.findMany({ where: { coreEventId: { in: [...eventIds] } } });
    const byEvent = new Map<string, MarketView[]>();
    for (const row of rows) {
      const list = byEvent.get(row.coreEventId) ?? [];
      list.push(toMarketView(row));
      byEvent.set(row.coreEventId, list);
    }
    return eventIds.map((id) => byEvent.get(id) ?? []);
  }

  private async page(
    where: Prisma.CoreEventWhereInput,
    orderBy: Prisma.CoreEventOrderByWithRelationInput[],
    page: number,
    pageSize: number,
  ): Promise<Page<EventView>> {
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.coreEvent.findMany({ where, orderBy, skip: (page - 1) * pageSize, take: pageSize }),
      this.prisma.coreEvent.count({ where }),
    ]);
    return { data: rows.map(toEventView), page, pageSize, total };
  }
}

function discoverOrder(sort: DiscoverSort): Prisma.CoreEventOrderByWithRelationInput[] {
  switch (sort) {
    case 'activity_desc':
      return [{ activityScore: 'desc' }, { id: 'asc' }];
    case 'updated_desc':
      return [{ updatedAt: 'desc' }, { id: 'asc' }];
    case 'close_asc':
      return [{ closeTime: { sort: 'asc', nulls: 'last' } }, { id: 'asc' }];
    default: {
      const never: never = sort;
      throw new Error(`unknown sort ${String(never)}`);
    }
  }
}

/** Venue, open-only and sort filters over one event's markets (a handful of rows). */
export function filterMarkets(markets: MarketView[], filter: MarketFilter): MarketView[] {
  const kept = markets.filter(
    (m) => (filter.venue === undefined || m.venue === filter.venue) && (!filter.openOnly || m.status === OPEN),
  );
  const sort = filter.sort ?? 'volume_desc';
  const byId = (a: MarketView, b: MarketView) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  switch (sort) {
    case 'volume_desc':
      return kept.sort((a, b) => (b.volume ?? -1) - (a.volume ?? -1) || byId(a, b));
    case 'updated_desc':
      return kept.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || byId(a, b));
    case 'close_asc':
      return kept.sort((a, b) => (a.endDate?.getTime() ?? Infinity) - (b.endDate?.getTime() ?? Infinity) || byId(a, b));
    default: {
      const never: never = sort;
      throw new Error(`unknown sort ${String(never)}`);
    }
  }
}
