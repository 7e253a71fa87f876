import { LocalEmbedder } from '../../../src/modules/search';
import { SearchService } from '../../../src/modules/search/search.service';
import { startTestApp, type TestApp } from '../../support/app';
import { pinnedWorld } from '../../support/pinned-world';
import { RELEVANCE_QUERIES } from './relevance.queries';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, {}, pinnedWorld());
});
afterAll(async () => {
  await app.close();
});

const QUERIES = [...RELEVANCE_QUERIES.map(([q]) => q), 'election', 'price', 'will it happen by 2027', 'zzqx'];

describe('pgvector and the exact fallback', () => {
  it('rank identically (same events, same order, same scores) for every query, limit and threshold', async () => {
    const { db } = app.services;
    const search = app.services.get(SearchService);
    const vectors = await new LocalEmbedder().embed(QUERIES);
    if (!db.hasVector) {
      // PostgreSQL without pgvector: the column does not exist and search takes the exact path.
      const cols = await db.prisma.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'EventEmbedding' AND column_name = 'embedding'`;
      expect(cols[0].n).toBe(0);
      process.stdout.write('\nno pgvector on this database: only the exact path runs here (PGlite runs both)\n');
      return;
    }
    let compared = 0;
    for (const v of vectors) {
      for (const [limit, threshold] of [
        [100, 0],
        [10, 0.1],
        [3, 0.25],
        [1, 0],
      ] as const) {
        const exact = await search.rank(v, limit, threshold, 'exact');
        const pg = await search.rank(v, limit, threshold, 'pgvector');
        expect(pg).toEqual(exact);
        compared += 1;
      }
    }
    expect(compared).toBe(QUERIES.length * 4);
  });

  it('stores the pgvector copy of every vector where the extension exists', async () => {
    if (!app.services.db.hasVector) return;
    const rows = await app.services.db.prisma.$queryRaw<{ n: number; d: number }[]>`
      SELECT count(*)::int AS n, max(("embedding" <=> ("values"::vector)))::float8 AS d FROM "EventEmbedding"
      WHERE "embedding" IS NOT NULL`;
    expect(rows[0].n).toBe(await app.services.db.prisma.coreEvent.count());
    expect(rows[0].d).toBeLessThan(1e-6);
  });
});
