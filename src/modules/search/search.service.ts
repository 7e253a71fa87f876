import type { PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import { round6 } from '../../money/money';
import { toEventView } from '../events/events.models';
import type { Embedder } from './embedder.types';
import type { EmbeddingStore, StoredVector, VectorSpace } from './embedding-store';
import { contentHash, eventDocument } from './event-document';
import { QueryEmbeddings } from './query-embeddings';
import { EMBED_BATCH_SIZE, QUERY_CACHE_DEFAULT } from './search.limits';
import type { IndexReport, RankedId, SearchMethod, SearchQuery, SearchResultView } from './search.models';
import { cosine } from './vector-math';

/**
 * pgvector compares in single precision; its candidates are re-scored exactly
 * (double precision, {@link cosine}) so both methods rank identically. These
 * bound what single precision can move: extra candidates fetched beyond
 * `limit`, and slack on the distance cut-off.
 */
const CANDIDATE_MARGIN = 16;
const DISTANCE_SLACK = 1e-4;
/** After a failed refresh (say the embedding API was down), searches retry it at most this often. */
const RETRY_REFRESH_MS = 60_000;

export interface SearchServiceOptions {
  /** Told after a refresh wrote vectors (the app publishes it so every process drops its scan cache). */
  onIndexChanged?: () => Promise<void>;
  onError?: (err: unknown) => void;
  /** How long the exact path keeps the vectors it scans (ms). */
  scanCacheMs?: number;
  /** Query vectors kept (least recently used out; 0 = none), see {@link QueryEmbeddings}. */
  queryCacheSize?: number;
  now?: () => number;
}

/**
 * Semantic event search: keeps one vector per event (refreshed from the
 * catalog by content hash) and ranks events by cosine similarity to the
 * query's vector, through pgvector where the database has it and by an exact
 * in-process scan where it does not.
 */
export class SearchService {
  private running: Promise<IndexReport> | null = null;
  private rerun = false;
  private scan: { key: string; expires: number; rows: Promise<StoredVector[]> } | null = null;
  /** When the last refresh failed (ms), or null when it succeeded. */
  private failedAt: number | null = null;
  private readonly queries: QueryEmbeddings;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly store: EmbeddingStore,
    private readonly embedder: Embedder,
    private readonly opts: SearchServiceOptions = {},
  ) {
    this.queries = new QueryEmbeddings(embedder, opts.queryCacheSize ?? QUERY_CACHE_DEFAULT);
  }

  /**
   * Brings the stored vectors up to date with the catalog: embeds events whose
   * text or embedder changed, in batches. Concurrent calls share one run (and
   * a call during a run schedules one more, so no change is missed).
   */
  refreshIndex(): Promise<IndexReport> {
    if (this.running) {
      this.rerun = true;
      return this.running;
    }
    const run = this.refreshOnce().then(
      (report) => {
        this.failedAt = null;
        return report;
      },
      (err: unknown) => {
        this.failedAt = this.clock();
        throw err;
      },
    );
    const tracked = run.finally(() => {
      this.running = null;
      if (this.rerun) {
        this.rerun = false;
        this.scheduleRefresh();
      }
    });
    this.running = tracked;
    return tracked;
  }

  /** {@link refreshIndex} in the background; failures go to `onError` (search then reports its own). */
  scheduleRefresh(): void {
    this.refreshIndex().catch((err: unknown) => this.opts.onError?.(err));
  }

  /** Resolves when no refresh is running (whatever its outcome). */
  async whenIdle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  /** Drops the exact path's scan cache (the index changed somewhere). */
  invalidate(): void {
    this.scan = null;
  }

  async search(query: SearchQuery): Promise<SearchResultView> {
    const q = query.q.trim();
    if (q === '') throw AppError.badRequest('q', 'must not be blank');
    // Vectors a failed refresh left missing or stale come back once the embedder does.
    if (this.failedAt !== null && !this.running && this.clock() - this.failedAt >= RETRY_REFRESH_MS)
      this.scheduleRefresh();
    // A search right after a catalog sync (or that retry) sees the vectors it asked for.
    await this.whenIdle();
    // Normalised and cached: a repeated query (in any case or spacing) costs no provider call.
    const vector = await this.queries.embed(q);
    const method: SearchMethod = (await this.store.vectorSearchAvailable()) ? 'pgvector' : 'exact';
    const ranked = await this.rank(vector, query.limit, query.threshold, method);
    const rows = await this.prisma.coreEvent.findMany({ where: { id: { in: ranked.map((r) => r.eventId) } } });
    const byId = new Map(rows.map((r) => [r.id, toEventView(r)]));
    return {
      data: ranked.flatMap((r) => {
        const event = byId.get(r.eventId);
        // An event deleted since it was ranked drops out rather than failing the search.
        return event ? [{ score: round6(r.score), event }] : [];
      }),
      query: q,
      limit: query.limit,
      threshold: query.threshold,
      provider: this.embedder.provider,
      model: this.embedder.model,
      method,
    };
  }

  /**
   * The `limit` events most similar to `vector` with a score of at least
   * `threshold`, best first, ties by event id. Both methods return the same
   * list: pgvector only preselects candidates, which are re-scored exactly.
   */
  async rank(vector: readonly number[], limit: number, threshold: number, method: SearchMethod): Promise<RankedId[]> {
    const space: VectorSpace = {
      provider: this.embedder.provider,
      model: this.embedder.model,
      dimension: vector.length,
    };
    const candidates =
      method === 'pgvector'
        ? await this.store.nearest(space, vector, limit + CANDIDATE_MARGIN, 1 - threshold + DISTANCE_SLACK)
        : await this.scanRows(space);
    return candidates
      .map((c) => ({ eventId: c.eventId, score: cosine(vector, c.values) }))
      .filter((r) => r.score >= threshold)
      .sort((a, b) => b.score - a.score || (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0))
      .slice(0, limit);
  }

  private scanRows(space: VectorSpace): Promise<StoredVector[]> {
    const key = `${space.provider}|${space.model}|${space.dimension}`;
    const now = this.clock();
    if (this.scan?.key === key && this.scan.expires > now) return this.scan.rows;
    const rows = this.store.all(space);
    const entry = { key, expires: now + (this.opts.scanCacheMs ?? 60_000), rows };
    this.scan = entry;
    rows.catch(() => {
      if (this.scan === entry) this.scan = null;
    });
    return rows;
  }

  private clock(): number {
    return (this.opts.now ?? Date.now)();
  }

  private async refreshOnce(): Promise<IndexReport> {
    const events = await this.prisma.coreEvent.findMany({
      select: { id: true, title: true, description: true, category: true, markets: { select: { title: true } } },
      orderBy: { id: 'asc' },
    });
    const stored = await this.store.hashes();
    const { provider, model } = this.embedder;
    const stale = events
      .map((e) => {
        const text = eventDocument({ ...e, marketTitles: e.markets.map((m) => m.title) });
        return { eventId: e.id, text, hash: contentHash(text, provider, model) };
      })
      .filter((d) => stored.get(d.eventId) !== d.hash);
    for (let i = 0; i < stale.length; i += EMBED_BATCH_SIZE) {
      const batch = stale.slice(i, i + EMBED_BATCH_SIZE);
      const vectors = await this.embedder.embed(batch.map((d) => d.text));
      await this.store.upsert(
        { provider, model },
        batch.map((d, j) => ({ eventId: d.eventId, contentHash: d.hash, values: vectors[j] })),
      );
    }
    if (stale.length > 0) {
      this.invalidate();
      await this.opts.onIndexChanged?.();
    }
    return { events: events.length, embedded: stale.length };
  }
}
