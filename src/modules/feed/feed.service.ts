import type { PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { SignedCursor } from '../../http/signed-cursor';
import type { PubSub } from '../../infra';
import { EventMatcher } from './feed-event-matcher';
import { FeedStream } from './feed-stream';
import { FEED_TOPIC } from './feed.limits';
import {
  parseFeedId,
  toFeedItemView,
  toMessage,
  type FeedFilters,
  type FeedItemInput,
  type FeedItemMessage,
  type FeedItemView,
} from './feed.models';

/** Serialises ingest transactions (PostgreSQL advisory lock key; harmless on PGlite's single connection). */
const FEED_INGEST_LOCK = 7_330_001;
/** Ingest transactions may wait for one another's lock. */
const FEED_INGEST_TX_TIMEOUT_MS = 30_000;

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

  /** The publication of the last batch: the next one waits for it. */
  private publishing: Promise<void> = Promise.resolve();

  /**
   * Stores a validated batch; items already seen (same source and external id)
   * are skipped, so a worker may resend at will. New items are published.
   *
   * Ingest transactions take one lock before their ids are drawn, so they
   * commit in id order: once an id is visible, so is every lower one, which
   * lets a stream resume from its last id and repair gaps from the database
   * (see {@link FeedStream}). Each message names the id committed before it.
   */
  async ingest(items: readonly FeedItemInput[]): Promise<IngestReport> {
    const events = await this.prisma.coreEvent.findMany({
      select: { id: true, slug: true, title: true, category: true },
    });
    const byRef = new Map(events.flatMap((e) => [[e.id, e.id] as const, [e.slug, e.id] as const]));
    const categoryOf = new Map(events.map((e) => [e.id, e.category]));
    const matcher = new EventMatcher(events);
    const rows = items.map((i) => {
      const given = i.coreEventId !== undefined ? byRef.get(i.coreEventId) : undefined;
      const coreEventId = given ?? matcher.match(i)?.eventId ?? null;
      return {
        source: i.source,
        externalId: i.externalId,
        kind: i.kind ?? 'news',
        title: i.title,
        summary: i.summary ?? '',
        url: i.url ?? null,
        author: i.author ?? null,
        category: i.category ?? (coreEventId !== null ? categoryOf.get(coreEventId) : undefined) ?? null,
        coreEventId,
        mappingMethod: given !== undefined ? 'given' : coreEventId !== null ? 'matched' : null,
        tags: i.tags ?? [],
        publishedAt: i.publishedAt,
      };
    });
    const { created, prevId } = await this.prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${FEED_INGEST_LOCK})`;
        const before = await tx.feedItem.aggregate({ _max: { id: true } });
        const created = await tx.feedItem.createManyAndReturn({ data: rows, skipDuplicates: true });
        await tx.feedIngestBatch.create({
          data: {
            received: items.length,
            inserted: created.length,
            duplicates: items.length - created.length,
            mapped: created.filter((c) => c.coreEventId !== null).length,
          },
        });
        return { created, prevId: before._max.id ?? 0n };
      },
      { timeout: FEED_INGEST_TX_TIMEOUT_MS },
    );
    const views = created.map(toFeedItemView).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    const messages = views.map((v, k) => toMessage(v, k === 0 ? prevId.toString() : views[k - 1].id));
    // Batches publish one after the other, in the order they committed (within this process).
    const turn = this.publishing.then(() => this.pubsub.publishMany(FEED_TOPIC, messages));
    this.publishing = turn.catch(() => undefined);
    await turn;
    return {
      received: items.length,
      inserted: views.length,
      duplicates: items.length - views.length,
      mapped: views.filter((v) => v.coreEventId !== null).length,
    };
  }

  /** Newest first; the cursor is the last id seen, signed and bound to the filters. */
  async list(filters: FeedFilters, limit: number, cursor?: string): Promise<FeedPage> {
    const before =
      cursor === undefined ? undefined : BigInt(this.cursors.decode<{ before: string }>(cursor, filters).before);
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
    const key = parseFeedId(id);
    if (key === null) throw AppError.notFound(`feed item ${id}`);
    const row = await this.prisma.feedItem.findUnique({ where: { id: key } });
    if (!row) throw AppError.notFound(`feed item ${id}`);
    return toFeedItemView(row);
  }

  /**
   * New items as one ordered stream; with `after` (the client's Last-Event-ID)
   * every committed item after it first, read in pages however many there are.
   */
  async stream(filters: FeedFilters, after?: bigint): Promise<AsyncIterableIterator<FeedItemView>> {
    const live = this.pubsub.iterate<FeedItemMessage>(FEED_TOPIC);
    try {
      // Subscribed before the head is read: what commits later arrives live.
      await live.ready;
      const head = await this.prisma.feedItem.aggregate({ _max: { id: true } });
      return new FeedStream(
        (a, upTo, f, limit) => this.range(a, upTo, f, limit),
        live,
        filters,
        head._max.id ?? 0n,
        after,
      );
    } catch (err) {
      await live.return();
      throw err;
    }
  }

  /** Items with `after < id <= upTo`, oldest first, at most `limit`. */
  async range(after: bigint, upTo: bigint, filters: FeedFilters, limit: number): Promise<FeedItemView[]> {
    const rows = await this.prisma.feedItem.findMany({
      where: { ...this.where(filters), id: { gt: after, lte: upTo } },
      orderBy: { id: 'asc' },
      take: limit,
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
      freshnessSeconds: s.latest_published
        ? Math.max(0, Math.round((now - s.latest_published.getTime()) / 1000))
        : null,
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
