import type {
  DiscoverEventsQuery,
  EventMarketsQuery,
  GetEventQuery,
  ListEventsQuery,
} from '../../../schema/generated/operations';
import { CATALOG_CHANGED_TOPIC } from '../../../src/modules/events';
import { CatalogService } from '../../../src/modules/ingestion/catalog.service';
import { http, NO_BACKGROUND_TIMERS, startTestApp, type TestApp } from '../../support/app';

type EventBody = GetEventQuery['event'];
type PageBody = ListEventsQuery['events'];
type Discovered = DiscoverEventsQuery['discoverEvents'];
type Markets = EventMarketsQuery['eventMarkets'];

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ DISCOVER_RATE_LIMIT: '1000', ...NO_BACKGROUND_TIMERS }); // SQL is counted
});
afterAll(async () => {
  await app.close();
});

describe('GET /api/events', () => {
  it('pages through every seeded event exactly once, most active first', async () => {
    const seen: EventBody[] = [];
    for (let page = 1; ; page += 1) {
      const r = await http(`${app.url}/api/events?page=${page}&pageSize=25`);
      expect(r.status).toBe(200);
      const body = r.body as PageBody;
      expect(body.page).toBe(page);
      expect(body.pageSize).toBe(25);
      expect(body.total).toBe(app.services.world.coreEvents.length);
      seen.push(...body.data);
      if (body.data.length < 25) break;
    }
    expect(seen).toHaveLength(app.services.world.coreEvents.length);
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    for (let i = 1; i < seen.length; i += 1)
      expect(seen[i - 1].activityScore).toBeGreaterThanOrEqual(seen[i].activityScore);
    const e = seen[0];
    expect(Object.keys(e)).toEqual(
      expect.arrayContaining(['id', 'slug', 'title', 'category', 'sourceType', 'markets']),
    );
    expect(e.markets.length).toBeGreaterThan(0);
    for (const m of e.markets) {
      expect(['venue_a', 'venue_b']).toContain(m.venue);
      if (m.yesPrice !== null) expect(m.yesPrice).toBeGreaterThanOrEqual(0);
      if (m.yesPrice !== null) expect(m.yesPrice).toBeLessThanOrEqual(1);
    }
  });

  it('filters by category and sourceType', async () => {
    const world = app.services.world.coreEvents;
    const category = world[0].category;
    const r = await http(`${app.url}/api/events?category=${encodeURIComponent(category)}&pageSize=100`);
    const body = r.body as PageBody;
    expect(body.total).toBe(world.filter((e) => e.category === category).length);
    expect(body.data.every((e) => e.category === category)).toBe(true);
    for (const sourceType of ['matched', 'venue_a_only', 'venue_b_only']) {
      const s = (await http(`${app.url}/api/events?sourceType=${sourceType}&pageSize=100`)).body as PageBody;
      expect(s.total).toBe(world.filter((e) => e.sourceType === sourceType).length);
      expect(s.total).toBeGreaterThan(0);
      for (const e of s.data) {
        const venues = new Set(e.markets.map((m) => m.venue));
        if (sourceType === 'matched') expect(venues).toEqual(new Set(['venue_a', 'venue_b']));
        if (sourceType === 'venue_a_only') expect(venues).toEqual(new Set(['venue_a']));
        if (sourceType === 'venue_b_only') expect(venues).toEqual(new Set(['venue_b']));
      }
    }
  });

  it.each([
    ['page=0', 'page'],
    ['page=2001', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['pageSize=0', 'pageSize'],
    ['pageSize=101', 'pageSize'],
    ['sourceType=both', 'sourceType'],
  ])('400 naming the field for %s', async (qs, field) => {
    const r = await http(`${app.url}/api/events?${qs}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'bad_request', message: expect.stringMatching(new RegExp(`^${field}: `)) });
  });

  it('accepts the bounds themselves', async () => {
    expect((await http(`${app.url}/api/events?page=2000&pageSize=100`)).status).toBe(200);
    expect((await http(`${app.url}/api/events?page=1&pageSize=1`)).status).toBe(200);
  });

  it('answers a conditional request with 304 when the ETag matches, 200 when it does not', async () => {
    const first = await http(`${app.url}/api/events?pageSize=5`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await fetch(`${app.url}/api/events?pageSize=5`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    const other = await fetch(`${app.url}/api/events?pageSize=5`, { headers: { 'if-none-match': 'W/"nope"' } });
    expect(other.status).toBe(200);
    const otherPage = await fetch(`${app.url}/api/events?pageSize=6`, { headers: { 'if-none-match': etag! } });
    expect(otherPage.status).toBe(200);
  });
});

describe('GET /api/events/{slug}', () => {
  it('returns the event by slug and by id, with ETag/304', async () => {
    const ce = app.services.world.coreEvents[3];
    const bySlug = await http(`${app.url}/api/events/${ce.slug}`);
    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toMatchObject({ id: ce.id, slug: ce.slug, title: ce.title, sourceType: ce.sourceType });
    const byId = await http(`${app.url}/api/events/${ce.id}`);
    expect(byId.body).toEqual(bySlug.body);
    const etag = bySlug.headers.get('etag')!;
    const cond = await fetch(`${app.url}/api/events/${ce.slug}`, { headers: { 'if-none-match': etag } });
    expect(cond.status).toBe(304);
  });

  it('404 for an unknown event', async () => {
    const r = await http(`${app.url}/api/events/no-such-event`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'not_found', message: expect.any(String) });
  });
});

describe('GET /api/events/discover', () => {
  it('finds events by words in the title, case-insensitively', async () => {
    const ce = app.services.world.coreEvents[7];
    const word = ce.title
      .split(/\s+/)
      .find((w) => w.length > 5)!
      .replace(/[^A-Za-z0-9]/g, '');
    const r = await http(
      `${app.url}/api/events/discover?search=${encodeURIComponent(word.toUpperCase())}&pageSize=100`,
    );
    expect(r.status).toBe(200);
    const body = r.body as Discovered;
    expect(body.data.map((e) => e.id)).toContain(ce.id);
  });

  it('filters by venue and sorts', async () => {
    const a = (await http(`${app.url}/api/events/discover?venue=venue_b&pageSize=100`)).body as Discovered;
    expect(a.total).toBe(app.services.world.coreEvents.filter((e) => e.venueEventIds.venue_b !== undefined).length);
    expect(a.data.every((e) => e.markets.some((m) => m.venue === 'venue_b'))).toBe(true);
    const closing = (await http(`${app.url}/api/events/discover?sort=close_asc&pageSize=100`)).body as Discovered;
    const times = closing.data.map((e) => (e.closeTime ? Date.parse(e.closeTime) : Infinity));
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    const updated = (await http(`${app.url}/api/events/discover?sort=updated_desc&pageSize=100`)).body as Discovered;
    const u = updated.data.map((e) => Date.parse(e.updatedAt));
    expect([...u].sort((x, y) => y - x)).toEqual(u);
  });

  it.each([
    ['sort=newest', 'sort'],
    ['venue=venue_c', 'venue'],
    ['pageSize=500', 'pageSize'],
    [`search=${'x'.repeat(201)}`, 'search'],
  ])('400 naming the field for %s', async (qs, field) => {
    const r = await http(`${app.url}/api/events/discover?${qs}`);
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(new RegExp(`^${field}: `));
  });

  it('serves the deprecated /api/markets/discover alias with a Deprecation header', async () => {
    const alias = await http(`${app.url}/api/markets/discover?pageSize=3`);
    const main = await http(`${app.url}/api/events/discover?pageSize=3`);
    expect(alias.status).toBe(200);
    expect(alias.body).toEqual(main.body);
    expect(alias.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(alias.headers.get('link')).toContain('</api/events/discover>; rel="successor-version"');
    expect(main.headers.get('deprecation')).toBeNull();
  });
});

describe('GET /api/events/{eventId}/markets', () => {
  it('lists the markets with venue, openOnly and sort filters', async () => {
    const ce = app.services.world.coreEvents.find((e) => e.sourceType === 'matched')!;
    const all = (await http(`${app.url}/api/events/${ce.id}/markets`)).body as Markets;
    expect(all.length).toBeGreaterThan(1);
    const vols = all.map((m) => m.volume ?? -1);
    expect([...vols].sort((x, y) => y - x)).toEqual(vols);
    const onlyA = (await http(`${app.url}/api/events/${ce.id}/markets?venue=venue_a`)).body as Markets;
    expect(onlyA.length).toBeGreaterThan(0);
    expect(onlyA.every((m) => m.venue === 'venue_a')).toBe(true);
    const open = (await http(`${app.url}/api/events/${ce.slug}/markets?openOnly=true`)).body as Markets;
    expect(open.every((m) => m.status === 'active')).toBe(true);
  });

  it('404 for an unknown event, 400 for a bad filter', async () => {
    expect((await http(`${app.url}/api/events/nope/markets`)).status).toBe(404);
    const bad = await http(`${app.url}/api/events/x/markets?openOnly=yes`);
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toMatch(/^openOnly: /);
  });
});

describe('memoized catalog reads', () => {
  it('serve repeated reads without SQL and drop them when the catalog-changed message arrives', async () => {
    const ce = app.services.world.coreEvents[11];
    await http(`${app.url}/api/events/${ce.slug}`);
    const before = app.services.db.queryCount();
    const cached = await http(`${app.url}/api/events/${ce.slug}`);
    expect(app.services.db.queryCount()).toBe(before);
    await app.services.db.prisma.coreEvent.update({ where: { id: ce.id }, data: { title: 'Renamed by an operator' } });
    expect((await http(`${app.url}/api/events/${ce.slug}`)).body).toEqual(cached.body);
    await app.services.infra.pubsub.publish(CATALOG_CHANGED_TOPIC, { at: Date.now() });
    expect(await titleEventually(ce.slug, 'Renamed by an operator')).toBe('Renamed by an operator');
    // A sync restores the venue's title and announces the change itself.
    await app.services.get(CatalogService).sync(app.services.world);
    expect(await titleEventually(ce.slug, ce.title)).toBe(ce.title);
  });
});

/** Polls the event until its title is `want` (pub/sub delivery is asynchronous) or 5 s pass. */
async function titleEventually(slug: string, want: string): Promise<string> {
  const deadline = Date.now() + 5000;
  let title = '';
  while (Date.now() < deadline) {
    title = ((await http(`${app.url}/api/events/${slug}`)).body as EventBody).title;
    if (title === want) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return title;
}
