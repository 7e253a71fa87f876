import type { Prisma, PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { SignedCursor } from '../../http/signed-cursor';
import type { Venue, VenueEvent } from '../../venues/venue.models';
import { keysetPageById, mapPage, type CursorPage } from '../market-data/cursor-page';
import { toMarketSummary, type MarketSummaryView } from '../market-data/market-data.models';
import { matchVenueEvents, surfaceRelationship, type Confidence, type RelationshipType } from './comparison-matcher';
import { toComparisonView, venueEventKey, type ComparisonView } from './comparisons.models';

/** Two venue events the catalog compares: grouped as one core event, or kept apart (`coreEventId` null). */
export interface ComparisonPair {
  coreEventId: string | null;
  a: VenueEvent;
  b: VenueEvent;
}

export interface ComparisonListQuery {
  bucket?: string;
  confidence?: Confidence;
  relationshipType?: RelationshipType;
  cursor?: string;
  limit: number;
}

/**
 * The matcher's verdict on each pair, as upserts keyed by the venue event
 * pair: the catalog sync runs them in its own batch, so comparisons exist as
 * soon as the events do, and re-running the sync keeps ids stable.
 */
export function comparisonUpserts(
  prisma: Pick<PrismaClient, 'comparison'>,
  pairs: readonly ComparisonPair[],
): Prisma.PrismaPromise<unknown>[] {
  return pairs.map(({ coreEventId, a, b }) => {
    const v = matchVenueEvents(a, b);
    const data = {
      coreEventId,
      venueATitle: a.title,
      venueBTitle: b.title,
      ...surfaceRelationship(v),
      reasoning: v.reasoning,
      bucket: v.bucket,
      subtag: v.subtag,
    };
    return prisma.comparison.upsert({
      where: { venueAEventId_venueBEventId: { venueAEventId: a.venueEventId, venueBEventId: b.venueEventId } },
      create: { venueAEventId: a.venueEventId, venueBEventId: b.venueEventId, ...data },
      update: data,
    });
  });
}

/**
 * Comparisons: cursor pages by id, one by id, and the markets of each side. Only resolvers read them:
 * their answers are shared through the operation pipeline's answer cache (the market-data routes are
 * cached until the catalog changes), so nothing is memoized here.
 */
export class ComparisonsService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly cursors: SignedCursor,
  ) {}

  async list(q: ComparisonListQuery): Promise<CursorPage<ComparisonView>> {
    const where: Prisma.ComparisonWhereInput = {
      ...(q.bucket !== undefined && { bucket: q.bucket }),
      ...(q.confidence !== undefined && { confidence: q.confidence }),
      ...(q.relationshipType !== undefined && { relationshipType: q.relationshipType }),
    };
    const page = await keysetPageById(
      this.cursors,
      this.prisma,
      { model: this.prisma.comparison, where },
      {
        list: 'comparisons',
        filters: {
          bucket: q.bucket ?? null,
          confidence: q.confidence ?? null,
          relationshipType: q.relationshipType ?? null,
        },
        cursor: q.cursor,
        limit: q.limit,
      },
    );
    return mapPage(page, toComparisonView);
  }

  async get(id: number): Promise<ComparisonView> {
    const row = await this.prisma.comparison.findUnique({ where: { id } });
    if (!row) throw AppError.notFound(`comparison ${id}`);
    return toComparisonView(row);
  }

  /** Market summaries of many venue events (`venue:venueEventId` keys) in one query; the loader's batch. */
  async marketsByVenueEvent(keys: readonly string[]): Promise<MarketSummaryView[][]> {
    const wanted = keys.map((k) => {
      const [venue, ...rest] = k.split(':');
      return { venue: venue as Venue, venueEventId: rest.join(':') };
    });
    const rows = await this.prisma.market.findMany({ where: { OR: wanted }, orderBy: { id: 'asc' } });
    const byKey = new Map<string, MarketSummaryView[]>();
    for (const row of rows) {
      const k = venueEventKey(row.venue, row.venueEventId);
      const list = byKey.get(k) ?? [];
      list.push(toMarketSummary(row));
      byKey.set(k, list);
    }
    return keys.map((k) => byKey.get(k) ?? []);
  }
}
