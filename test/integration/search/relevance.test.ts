import type { SearchEventsQuery } from '../../../schema/generated/operations';
import { http, startTestApp, type TestApp } from '../../support/app';
import { pinnedWorld } from '../../support/pinned-world';
import { RELEVANCE_QUERIES } from './relevance.queries';

/** Share of queries whose event must be among the first three results. */
const MIN_TOP3_HIT_RATE = 0.8;

let app: TestApp;
beforeAll(async () => {
  // The demo world pinned to one calendar month, so the expected slugs exist whatever today is. Every
  // query comes from one address within a minute: the per-client search limit is raised so the list can grow.
  app = await startTestApp({ SEARCH_RATE_LIMIT: '1000' }, {}, pinnedWorld());
});
afterAll(async () => {
  await app.close();
});

describe('search relevance (local embedder, demo world)', () => {
  it(
    `finds the intended event in the top 3 for at least ${MIN_TOP3_HIT_RATE * 100}% of ` +
      `${RELEVANCE_QUERIES.length} paraphrased queries`,
    async () => {
      expect(RELEVANCE_QUERIES.length).toBeGreaterThanOrEqual(25);
      const slugs = new Set(app.services.world.coreEvents.map((e) => e.slug));
      const misses: string[] = [];
      let top1 = 0;
      let top3 = 0;
      for (const [q, slug] of RELEVANCE_QUERIES) {
        expect(slugs).toContain(slug);
        const r = await http(`${app.url}/api/events/search?q=${encodeURIComponent(q)}&limit=3&threshold=0`);
        expect(r.status).toBe(200);
        const found = (r.body as SearchEventsQuery['searchEvents']).data.map((h) => h.event.slug);
        const rank = found.indexOf(slug);
        if (rank === 0) top1 += 1;
        if (rank >= 0) top3 += 1;
        else misses.push(`  "${q}" → ${found.join(', ')} (wanted ${slug})`);
      }
      const n = RELEVANCE_QUERIES.length;
      process.stdout.write(
        `\nsearch relevance: top-1 ${top1}/${n} (${((top1 / n) * 100).toFixed(1)}%), top-3 ${top3}/${n} ` +
          `(${((top3 / n) * 100).toFixed(1)}%)\n` +
          (misses.length ? `misses:\n${misses.join('\n')}\n` : ''),
      );
      expect(top3 / n).toBeGreaterThanOrEqual(MIN_TOP3_HIT_RATE);
    },
  );
});
