import { Prisma, type PrismaClient } from '../../db/generated/client';
import { slugify, type WorldCoreEvent } from '../../venues';
import { VENUES, type Venue, type VenueEvent, type VenueMarket } from '../../venues/venue.models';
import type { VenueClient } from '../../venues/venue-client';
import { comparisonUpserts, type ComparisonPair } from '../comparisons/comparisons.service';
import type { Embedder } from '../search/embedder.types';
import { contentHash, eventDocument } from '../search/event-document';
import { EMBED_BATCH_SIZE } from '../search/search.limits';
import { cosine } from '../search/vector-math';
import { coreEventIdOf, planCatalog, type CatalogGroup, type PairDecision } from './catalog-match';
import { marketData, moveEventReferences, toPairDecision } from './catalog-rows';

/**
 * Where core events come from: each venue's client and, when every venue is the
 * simulated world, its grouping of venue events into core events. Without that
 * grouping (a live venue), the catalog job matches the venues' events itself.
 */
export interface CatalogSource {
  coreEvents?: readonly WorldCoreEvent[];
  clients: Readonly<Record<Venue, VenueClient>>;
}

export interface SyncReport {
  events: number;
  markets: number;
  /** Venue events merged with their counterpart on the other venue (the job's matching only). */
  merged: number;
  /** Venues whose listing failed: their markets keep their last figures and the grouping waits. */
  failedVenues: Venue[];
  /** True when another process was syncing: this run wrote nothing. */
  skipped: boolean;
}

export interface CatalogServiceOptions {
  /** The search embedder: the similarity of two venue events is the cosine of their vectors. */
  embedder?: Embedder;
  /** Similarity a cross-venue pair needs before the matcher may merge it (0..1). */
  matchThreshold?: number;
  /** A venue's listing failed (the sync goes on without it). */
  onVenueError?: (venue: Venue, err: unknown) => void;
}

/** Stable internal id of a venue market. */
export function marketKey(venue: Venue, venueMarketId: string): string {
  return `${venue}:${venueMarketId}`;
}

/**
 * First half of the advisory lock key the catalog job takes; the second is
 * `hashtext(current_schema() || ':catalog-sync')`, so the processes of one deployment (one
 * schema) exclude each other and deployments in other schemas of the same server do not. A
 * transaction-level lock: released at commit, and taken with `pg_try_advisory_xact_lock`
 * (PostgreSQL and PGlite alike), so a second process finds it held and skips its run.
 */
const CATALOG_LOCK = 4_207;
/** `CATALOG_MATCH_THRESHOLD`'s default. */
const DEFAULT_MATCH_THRESHOLD = 0.5;
/** A sync writes thousands of rows in one transaction on a big catalog. */
const SYNC_TX_TIMEOUT_MS = 120_000;

type Tx = Prisma.TransactionClient;

/**
 * Loads the venues' catalogs into the database as core events and markets.
 * Upserts by stable ids, so running it again changes nothing but prices.
 */
export class CatalogService {
  /** Vectors of venue event documents by content hash, kept between syncs (only new texts are embedded). */
  private vectors = new Map<string, number[]>();

  /** @param onChanged told after every sync that wrote (the app publishes a catalog-changed message). */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly onChanged: () => Promise<void> = async () => undefined,
    private readonly opts: CatalogServiceOptions = {},
  ) {}

  /**
   * Loads the venues' catalogs: grouped by the simulated world's own answer when
   * it has one (every venue simulated), else by the catalog job's matching.
   */
  sync(source: CatalogSource): Promise<SyncReport> {
    return source.coreEvents ? this.syncWorld(source.coreEvents, source.clients) : this.syncMatched(source.clients);
  }

  private async syncWorld(
    coreEvents: readonly WorldCoreEvent[],
    clients: Readonly<Record<Venue, VenueClient>>,
  ): Promise<SyncReport> {
    const source = { coreEvents, clients };
    const venues = Object.keys(source.clients) as Venue[];
    const marketsByVenueEvent = new Map<string, VenueMarket[]>();
    const venueEvents = new Map<string, VenueEvent>();
    const listings = await Promise.all(venues.map((v) => source.clients[v].listEvents()));
    for (const events of listings) {
      for (const e of events) {
        marketsByVenueEvent.set(`${e.venue}:${e.venueEventId}`, e.markets);
        venueEvents.set(`${e.venue}:${e.venueEventId}`, e);
      }
    }

    const ops: Prisma.PrismaPromise<unknown>[] = [];
    let marketCount = 0;
    for (const ce of source.coreEvents) {
      const markets = venues.flatMap((v) => {
        const id = ce.venueEventIds[v];
        return id === undefined ? [] : (marketsByVenueEvent.get(`${v}:${id}`) ?? []);
      });
      const activity = markets.reduce((sum, m) => sum + (m.volume24h ?? 0), 0);
      const event = {
        slug: ce.slug,
        title: ce.title,
        description: ce.description,
        category: ce.category,
        sourceType: ce.sourceType,
        closeTime: ce.closeTime,
        activityScore: activity.toFixed(6),
      };
      ops.push(this.prisma.coreEvent.upsert({ where: { id: ce.id }, create: { id: ce.id, ...event }, update: event }));
      for (const m of markets) {
        marketCount += 1;
        const data = marketData(m);
        const id = marketKey(m.venue, m.venueMarketId);
        ops.push(
          this.prisma.market.upsert({
            where: { id },
            create: { id, venue: m.venue, venueMarketId: m.venueMarketId, coreEventId: ce.id, ...data },
            update: { coreEventId: ce.id, ...data },
          }),
        );
      }
    }
    // Cross-venue comparisons belong to the catalog: the matcher reads the venues' own
    // wording (never the simulator's answers) and its verdicts land in the same batch.
    const pairs: ComparisonPair[] = source.coreEvents.flatMap((ce) => {
      const a =
        ce.venueEventIds.venue_a === undefined ? undefined : venueEvents.get(`venue_a:${ce.venueEventIds.venue_a}`);
      const b =
        ce.venueEventIds.venue_b === undefined ? undefined : venueEvents.get(`venue_b:${ce.venueEventIds.venue_b}`);
      return a && b ? [{ coreEventId: ce.id, a, b }] : [];
    });
    ops.push(...comparisonUpserts(this.prisma, pairs));
    // One batch transaction: PGlite has a single connection, so no interactive callback.
    await this.prisma.$transaction(ops);
    await this.onChanged();
    return { events: source.coreEvents.length, markets: marketCount, merged: 0, failedVenues: [], skipped: false };
  }

  /**
   * The catalog job: lists every venue's open events, groups them into core
   * events (a venue event alone, or merged with its match on the other venue;
   * see {@link planCatalog}), and writes events, markets, decisions and
   * comparisons in one transaction under the catalog lock. Core event ids are
   * derived from venue event ids, so they are stable across syncs. A venue
   * that cannot be listed is reported in `failedVenues`: the other venues'
   * markets get their new figures, and nothing is regrouped until both list.
   */
  private async syncMatched(clients: Readonly<Record<Venue, VenueClient>>): Promise<SyncReport> {
    const venues = VENUES.filter((v) => clients[v] !== undefined);
    const settled = await Promise.allSettled(venues.map((v) => clients[v].listEvents()));
    const listed = new Map<Venue, VenueEvent[]>();
    const failedVenues: Venue[] = [];
    settled.forEach((r, i) => {
      if (r.status === 'fulfilled') listed.set(venues[i], r.value);
      else {
        failedVenues.push(venues[i]);
        this.opts.onVenueError?.(venues[i], r.reason);
      }
    });
    const venueA = listed.get('venue_a') ?? [];
    const venueB = listed.get('venue_b') ?? [];
    const similarity = failedVenues.length === 0 ? await this.similarityOf([...venueA, ...venueB]) : undefined;
    const report = await this.prisma.$transaction(
      async (tx): Promise<SyncReport> => {
        const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`
          SELECT pg_try_advisory_xact_lock(${CATALOG_LOCK}::int, hashtext(current_schema() || ':catalog-sync'))
            AS locked`;
        if (!locked) return { events: 0, markets: 0, merged: 0, failedVenues, skipped: true };
        if (!similarity) return this.refreshFigures(tx, [...listed.values()].flat(), failedVenues);
        const pinned = await tx.catalogDecision.findMany({ where: { pinned: true } });
        const plan = planCatalog({
          venueA,
          venueB,
          similarity,
          pinned: pinned.map(toPairDecision),
          threshold: this.opts.matchThreshold ?? DEFAULT_MATCH_THRESHOLD,
        });
        const markets = await this.writeGroups(tx, plan.groups);
        await this.closeUnlisted(tx, listed);
        await this.writeDecisions(tx, venueA, plan.groups, plan.decisions);
        return {
          events: plan.groups.length,
          markets,
          merged: plan.groups.filter((g) => g.a && g.b).length,
          failedVenues,
          skipped: false,
        };
      },
      { timeout: SYNC_TX_TIMEOUT_MS, maxWait: SYNC_TX_TIMEOUT_MS },
    );
    if (!report.skipped) await this.onChanged();
    return report;
  }

  /** Cosine similarity of two venue events' search embeddings (their search documents). */
  private async similarityOf(events: readonly VenueEvent[]): Promise<(a: VenueEvent, b: VenueEvent) => number> {
    const embedder = this.opts.embedder;
    if (!embedder) return () => 0;
    const docs = events.map((e) => {
      const text = eventDocument({
        id: '',
        title: e.title,
        description: e.description,
        category: e.category,
        marketTitles: e.markets.map((m) => m.title),
      });
      return { e, text, hash: contentHash(text, embedder.provider, embedder.model) };
    });
    const missing = [...new Map(docs.filter((d) => !this.vectors.has(d.hash)).map((d) => [d.hash, d])).values()];
    const vectors = new Map<string, number[]>();
    for (let i = 0; i < missing.length; i += EMBED_BATCH_SIZE) {
      const batch = missing.slice(i, i + EMBED_BATCH_SIZE);
      const fresh = await embedder.embed(batch.map((d) => d.text));
      batch.forEach((d, j) => vectors.set(d.hash, fresh[j]));
    }
    for (const d of docs) if (!vectors.has(d.hash)) vectors.set(d.hash, this.vectors.get(d.hash) ?? []);
    // Only this catalog's vectors are kept: events that left the venues drop out.
    this.vectors = vectors;
    const byEvent = new Map(docs.map((d) => [d.e, vectors.get(d.hash) ?? []]));
    return (a, b) => cosine(byEvent.get(a) ?? [], byEvent.get(b) ?? []);
  }

  /** Writes each group as a core event with the markets of its venue events; returns the market count. */
  private async writeGroups(tx: Tx, groups: readonly CatalogGroup[]): Promise<number> {
    let count = 0;
    for (const g of groups) {
      const lead = (g.a ?? g.b) as VenueEvent;
      const markets = [...(g.a?.markets ?? []), ...(g.b?.markets ?? [])];
      const event = {
        title: lead.title,
        description: lead.description,
        category: lead.category,
        sourceType: g.a && g.b ? ('matched' as const) : g.a ? ('venue_a_only' as const) : ('venue_b_only' as const),
        closeTime: lead.closeTime,
        activityScore: markets.reduce((sum, m) => sum + (m.volume24h ?? 0), 0).toFixed(6),
      };
      // The slug is set once: links keep working when a venue rewords its title.
      const slug = `${slugify(lead.title).slice(0, 80) || 'event'}-${g.id.slice(4, 10)}`;
      await tx.coreEvent.upsert({ where: { id: g.id }, create: { id: g.id, slug, ...event }, update: event });
      for (const m of markets) {
        count += 1;
        const id = marketKey(m.venue, m.venueMarketId);
        const data = marketData(m);
        await tx.market.upsert({
          where: { id },
          create: { id, venue: m.venue, venueMarketId: m.venueMarketId, coreEventId: g.id, ...data },
          update: { coreEventId: g.id, ...data },
        });
      }
    }
    // A venue_b event merged into its venue_a match leaves its own core event empty.
    const absorbed = groups.flatMap((g) =>
      g.a && g.b ? [{ from: coreEventIdOf('venue_b', g.b.venueEventId), to: g.id }] : [],
    );
    if (absorbed.length > 0) {
      const empty = await tx.coreEvent.findMany({
        where: { id: { in: absorbed.map((m) => m.from) }, markets: { none: {} } },
        select: { id: true },
      });
      const gone = new Set(empty.map((e) => e.id));
      await moveEventReferences(
        tx,
        absorbed.filter((m) => gone.has(m.from)),
      );
      if (gone.size > 0) await tx.coreEvent.deleteMany({ where: { id: { in: [...gone] } } });
    }
    return count;
  }

  /** Markets a venue listed before and no longer lists are no longer open. */
  private async closeUnlisted(tx: Tx, listed: ReadonlyMap<Venue, VenueEvent[]>): Promise<void> {
    for (const [venue, events] of listed) {
      const ids = events.flatMap((e) => e.markets.map((m) => m.venueMarketId));
      await tx.market.updateMany({
        where: { venue, status: 'active', venueMarketId: { notIn: ids } },
        data: { status: 'closed' },
      });
    }
  }

  /**
   * Stores this run's decisions (pinned ones stay as they are) and the
   * comparisons they imply: each merged pair, and each pair kept apart that the
   * matcher found similar. Unpinned decisions and comparisons of listed venue_a
   * events that this run did not make again are dropped.
   */
  private async writeDecisions(
    tx: Tx,
    venueA: readonly VenueEvent[],
    groups: readonly CatalogGroup[],
    decisions: readonly PairDecision[],
  ): Promise<void> {
    const listedA = venueA.map((e) => e.venueEventId);
    const coreOfA = new Map(groups.flatMap((g) => (g.a && g.b ? [[g.a.venueEventId, g.id] as const] : [])));
    await tx.catalogDecision.deleteMany({ where: { pinned: false, venueAEventId: { in: listedA } } });
    const made = decisions.filter((d) => !d.pinned);
    if (made.length > 0) {
      await tx.catalogDecision.createMany({
        data: made.map((d) => ({
          ...d,
          similarity: d.similarity.toFixed(6),
          coreEventId: d.decision === 'merge' ? (coreOfA.get(d.venueAEventId) ?? null) : null,
        })),
        skipDuplicates: true,
      });
    }
    for (const d of decisions.filter((x) => x.pinned)) {
      await tx.catalogDecision.updateMany({
        where: { venueAEventId: d.venueAEventId, venueBEventId: d.venueBEventId },
        data: { coreEventId: d.decision === 'merge' ? (coreOfA.get(d.venueAEventId) ?? null) : null },
      });
    }
    const aById = new Map(venueA.map((e) => [e.venueEventId, e]));
    const bById = new Map(groups.flatMap((g) => (g.b ? [[g.b.venueEventId, g.b] as const] : [])));
    const pairs: ComparisonPair[] = groups.flatMap((g) => (g.a && g.b ? [{ coreEventId: g.id, a: g.a, b: g.b }] : []));
    const threshold = this.opts.matchThreshold ?? DEFAULT_MATCH_THRESHOLD;
    for (const d of decisions) {
      const a = aById.get(d.venueAEventId);
      const b = bById.get(d.venueBEventId);
      // Kept apart but one question in other words (a near miss is no comparison).
      const related = d.relationshipType === 'similar' && d.similarity >= threshold;
      if (d.decision === 'separate' && related && a && b) pairs.push({ coreEventId: null, a, b });
    }
    await tx.comparison.deleteMany({
      where: {
        venueAEventId: { in: listedA },
        NOT: { OR: pairs.map((p) => ({ venueAEventId: p.a.venueEventId, venueBEventId: p.b.venueEventId })) },
      },
    });
    for (const op of comparisonUpserts(tx, pairs)) await op;
  }

  /** A venue failed to list: the others' known markets get their new figures, nothing is regrouped. */
  private async refreshFigures(tx: Tx, events: readonly VenueEvent[], failedVenues: Venue[]): Promise<SyncReport> {
    let markets = 0;
    for (const m of events.flatMap((e) => e.markets)) {
      const { count } = await tx.market.updateMany({
        where: { id: marketKey(m.venue, m.venueMarketId) },
        data: marketData(m),
      });
      markets += count;
    }
    return { events: 0, markets, merged: 0, failedVenues, skipped: false };
  }

  /** Map of venue market key → core event id, for tagging live trades. */
  async marketIndex(): Promise<Map<string, string>> {
    const rows = await this.prisma.market.findMany({ select: { venue: true, venueMarketId: true, coreEventId: true } });
    return new Map(rows.map((r) => [marketKey(r.venue, r.venueMarketId), r.coreEventId]));
  }
}
