import type { PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { SignedCursor } from '../../http/signed-cursor';
import type { PubSub } from '../../infra';
import { matchEvent } from './feed-event-matcher';
import { FEED_LIMITS, FEED_TOPIC } from './feed.limits';
import { toFeedItemView, toMessage, type FeedFilters, type FeedItemInput, type FeedItemView } from './feed.models';

export interface IngestReport {
  received: number;
  inserted: number;
  duplicates: number;
  mapped: number;
}

export interface FeedPage {
  data: FeedItemView[];
  nextCursor: string | null;
  hasMore: boolean;
}

export interface SourceQuality {
  source: string;
  items: number;
  mapped: number;
  latestPublishedAt: Date | null;
  latestIngestedAt: Date | null;
  freshnessSeconds: number | null;
}

export interface FeedQuality {
  items: number;
  mapped: number;
  mappingRate: number;
  duplicatesRejected: number;
  batches: number;
  sources: SourceQuality[];
  checkedAt: Date;
}

/** The followed activity feed: idempotent ingest, cursor pages, quality, live fan-out. */
export class FeedService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly pubsub: PubSub,
    private readonly cursors: SignedCursor,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Stores a validated batch; items already seen (same source and external id)
   * are skipped, so a worker may resend at will. New items are published.
   */
  async ingest(items: readonly FeedItemInput[]): Promise<IngestReport> {
    const events = await this.prisma.coreEvent.findMany({ select: { id: true, slug: true, title: true, category: true } });
    const byRef = new Map(events.flatMap((e) => [[e.id, e.id] as const, [e.slug, e.id] as const]));
    const rows = items.map((i) => {
      const given = i.coreEventId !== undefined ? byRef.get(i.coreEventId) : undefined;
      const matched = given === undefined ? matchEvent(i, events) : null;
      return {
        source: i.source,
        externalId: i.externalId,
        kind: i.kind ?? 'news',
        title: i.title,
        summary: i.summary ?? '',
        url: i.url ?? null,
        author: i.author ?? null,
        category: i.category ?? events.find((e) => e.id === (given ?? matched?.eventId))?.category ?? null,
        coreEventId: given ?? matched?.eventId ?? null,
        mappingMethod: given !== undefined ? 'given' : matched ? 'matched' : null,
        tags: i.tags ?? [],
        publishedAt: i.publishedAt,
      };
    });
    const inserted = await this.prisma.$transaction(async (tx) => {
      const created = await tx.feedItem.createManyAndReturn({ data: rows, skipDuplicates: true });
      await tx.feedIngestBatch.create({
        data: {
          received: items.length,
          inserted: created.length,
          duplicates: items.length - created.length,
          mapped: created.filter((c) => c.coreEventId !== null).length,
        },
      });
      return created;
    });
    const views = inserted.map(toFeedItemView).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    for (const v of views) await this.pubsub.publish(FEED_TOPIC, toMessage(v));
    return {
      received: items.length,
      inserted: views.length,
      duplicates: items.length - views.length,
      mapped: views.filter((v) => v.coreEventId !== null).length,
    };
  }

  /** Newest first; the cursor is the last id seen, signed and bound to the filters. */
  async list(filters: FeedFilters, limit: number, cursor?: string): Promise<FeedPage> {
    const before = cursor === undefined ? undefined : BigInt(this.cursors.decode<{ before: string }>(cursor, filters).before);
    const rows = await this.prisma.feedItem.findMany({
      where: { ...this.where(filters), ...(before !== undefined && { id: { lt: before } }) },
      orderBy: { id: 'desc' },
      take: limit + 1,
    });
    const hasMore = rows.length > limit;
    const data = rows.slice(0, limit).map(toFeedItemView);
    const last = data[data.length - 1];
    return { data, hasMore, nextCursor: hasMore && last ? this.cursors.encode({ before: last.id }, filters) : null };
  }

  async get(id: string): Promise<FeedItemView> {
    if (!/^\d{1,19}$/.test(id)) throw AppError.notFound(`feed item ${id}`);
    const row = await this.prisma.feedItem.findUnique({ where: { id: BigInt(id) } });
    if (!row) throw AppError.notFound(`feed item ${id}`);
    return toFeedItemView(row);
  }

  /** Items after `afterId`, oldest first (stream resumption), at most the replay bound. */
  async since(afterId: bigint, filters: FeedFilters): Promise<FeedItemView[]> {
    const rows = await this.prisma.feedItem.findMany({
      where: { ...this.where(filters), id: { gt: afterId } },
      orderBy: { id: 'asc' },
      take: FEED_LIMITS.replay.max,
    });
    return rows.map(toFeedItemView);
  }

  async quality(): Promise<FeedQuality> {
    const [perSource, batches] = await this.prisma.$transaction([
      this.prisma.$queryRaw<
        { source: string; items: bigint; mapped: bigint; latest_published: Date | null; latest_ingested: Date | null }[]
      >`SELECT "source", COUNT(*) AS items, COUNT("coreEventId") AS mapped,
               MAX("publishedAt") AS latest_published, MAX("ingestedAt") AS latest_ingested
        FROM "FeedItem" GROUP BY "source" ORDER BY "source"`,
      this.prisma.feedIngestBatch.aggregate({ _sum: { duplicates: true }, _count: { _all: true } }),
    ]);
    const now = this.now();
    const sources = perSource.map((s) => ({
      source: s.source,
      items: Number(s.items),
      mapped: Number(s.mapped),
      latestPublishedAt: s.latest_published,
      latestIngestedAt: s.latest_ingested,
      freshnessSeconds: s.latest_published ? Math.max(0, Math.round((now - s.latest_published.getTime()) / 1000)) : null,
    }));
    const items = sources.reduce((n, s) => n + s.items, 0);
    const mapped = sources.reduce((n, s) => n + s.mapped, 0);
    return {
      items,
      mapped,
      mappingRate: items === 0 ? 0 : Math.round((mapped / items) * 10_000) / 10_000,
      duplicatesRejected: batches._sum.duplicates ?? 0,
      batches: batches._count._all,
      sources,
      checkedAt: new Date(now),
    };
  }

  private where(f: FeedFilters) {
    return {
      ...(f.category !== undefined && { category: f.category }),
      ...(f.source !== undefined && { source: f.source }),
      ...(f.coreEventId !== undefined && { coreEventId: f.coreEventId }),
    };
  }
}
