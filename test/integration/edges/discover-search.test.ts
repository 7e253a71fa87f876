import type { DiscoverEventsQuery } from '../../../schema/generated/operations';
import { http, startTestApp, type TestApp } from '../../support/app';

type Discovered = DiscoverEventsQuery['discoverEvents'];

/** Discover search matches its text literally: LIKE wildcards (`%`, `_`) and the escape (`\`) match themselves. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const discover = async (search: string) => {
  const r = await http(`${app.url}/api/events/discover?search=${encodeURIComponent(search)}&pageSize=100`);
  expect(r.status).toBe(200);
  return r.body as Discovered;
};

/** Events whose title, description or a market title holds `text` (case-insensitively), by `strpos` (no pattern). */
async function holding(text: string): Promise<number> {
  const [row] = await app.services.db.prisma.$queryRaw<{ n: number }[]>`
    SELECT count(DISTINCT e."id")::int AS n FROM "CoreEvent" e LEFT JOIN "Market" m ON m."coreEventId" = e."id"
    WHERE strpos(lower(e."title"), lower(${text})) > 0 OR strpos(lower(e."description"), lower(${text})) > 0
       OR strpos(lower(m."title"), lower(${text})) > 0`;
  return row.n;
}

it.each(['%', '_', '\\', '%%', '_%_', 'a%', '%e'])(
  'searching %j matches only events holding it literally',
  async (s) => {
    const all = (await http(`${app.url}/api/events/discover?pageSize=100`)).body as Discovered;
    expect(all.total).toBeGreaterThan(1);
    const found = await discover(s);
    expect(found.total).toBe(await holding(s));
    expect(found.total).toBeLessThan(all.total);
  },
);

it('a word still matches as before', async () => {
  const ce = app.services.world.coreEvents[3];
  const word = ce.title.split(/\s+/).find((w) => /^[A-Za-z]{5,}$/.test(w))!;
  expect((await discover(word)).data.map((e) => e.id)).toContain(ce.id);
});
