import type {
  MdCategoriesQuery,
  MdComparisonFieldsFragment,
  MdComparisonQuery,
  MdEventsQuery,
  MdMarketFieldsFragment,
  MdMarketsQuery,
} from '../../../schema/generated/operations';
import { CATALOG_CHANGED_TOPIC } from '../../../src/modules/events';
import { CatalogService } from '../../../src/modules/ingestion/catalog.service';
import { startTestApp, type TestApp } from '../../support/app';
import { eventually } from '../../support/wait';
import { issueKey, md } from './md-helpers';

/** The cursor envelope of the market-data lists, around items of type `T`. */
type Page<T> = Omit<MdMarketsQuery['marketDataMarkets'], 'data'> & { data: T[] };
type Market = MdMarketFieldsFragment;
type Comparison = MdComparisonFieldsFragment;

const MARKET_FIELDS = [
  'venue',
  'venue_market_id',
  'title',
  'status',
  'venue_event_id',
  'core_event_id',
  'description',
  'market_slug',
  'outcomes',
  'end_date_iso',
  'best_bid',
  'best_ask',
  'mid_price',
  'spread',
  'volume',
  'volume_24h',
  'open_interest',
  'liquidity',
  'icon_url',
  'image_url',
];
const SUMMARY_FIELDS = [
  'venue',
  'venue_market_id',
  'title',
  'mid_price',
  'best_bid',
  'best_ask',
  'spread',
  'volume',
  'volume_24h',
];

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
  key = (await issueKey(app)).key;
});
afterAll(async () => {
  await app.close();
});

async function page<T>(path: string): Promise<Page<T>> {
  const r = await md(app, path, key);
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
  return r.body as Page<T>;
}

/** Follows next_cursor to the end; checks the envelope on every page. */
async function walk<T>(base: string, limit: number): Promise<{ items: T[]; pages: number; total: number }> {
  const items: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  let total = -1;
  const sep = base.includes('?') ? '&' : '?';
  do {
    const p: Page<T> = await page<T>(
      `${base}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    pages += 1;
    expect(p.data.length).toBeLessThanOrEqual(limit);
    expect(p.has_more).toBe(p.next_cursor !== null);
    if (p.has_more) expect(p.data).toHaveLength(limit);
    if (total >= 0) expect(p.total_count).toBe(total);
    total = p.total_count;
    items.push(...p.data);
    cursor = p.next_cursor;
  } while (cursor !== null);
  return { items, pages, total };
}

describe('cursor pagination', () => {
  it.each([
    ['/api/markets', (m: Market) => `${m.venue}:${m.venue_market_id}`],
    ['/api/events', (e: { id: string }) => e.id],
    ['/api/comparisons', (c: Comparison) => String(c.id)],
  ] as const)('walks %s with limit 7: every item exactly once, the last page closes', async (path, id) => {
    const all = await page<never>(`${path}?limit=200`);
    const { items, pages, total } = await walk<never>(path, 7);
    expect(total).toBe(all.total_count);
    expect(items).toHaveLength(total);
    const ids = items.map((i) => (id as (x: never) => string)(i));
    expect(new Set(ids).size).toBe(total);
    expect(pages).toBe(Math.ceil(total / 7));
    expect(total).toBeGreaterThan(7);
  });

  it('defaults to 50 and bounds limit to 1..200', async () => {
    const p = await page<Market>('/api/markets');
    expect(p.data).toHaveLength(50);
    for (const bad of ['0', '201', 'ten', '1.5']) {
      const r = await md(app, `/api/markets?limit=${bad}`, key);
      expect(r.status).toBe(400);
      expect((r.body as { message: string }).message).toMatch(/^limit: /);
    }
  });

  it('re-fetches the same page with the same cursor', async () => {
    const first = await page<Market>('/api/markets?limit=5&venue=venue_b');
    const again1 = await page<Market>(
      `/api/markets?limit=5&venue=venue_b&cursor=${encodeURIComponent(first.next_cursor!)}`,
    );
    const again2 = await page<Market>(
      `/api/markets?limit=5&venue=venue_b&cursor=${encodeURIComponent(first.next_cursor!)}`,
    );
    expect(again2).toEqual(again1);
    expect(again1.data[0].venue_market_id).not.toBe(first.data[0].venue_market_id);
  });

  it('refuses a tampered cursor, a cursor of other filters and a cursor of another list with 400', async () => {
    const first = await page<Market>('/api/markets?limit=5&venue=venue_a');
    const cursor = first.next_cursor!;
    const [body, sig] = cursor.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(body, 'base64url').toString()) as { p: { after: string } };
    decoded.p.after = 'venue_a:0';
    const forged = `${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${sig}`;
    const at = cursor.length - 2;
    const flipped = cursor.slice(0, at) + (cursor[at] === 'A' ? 'B' : 'A') + cursor.slice(at + 1);
    for (const bad of [forged, flipped, 'garbage', `${body}.`]) {
      const r = await md(app, `/api/markets?limit=5&venue=venue_a&cursor=${encodeURIComponent(bad)}`, key);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'bad_request', message: 'cursor: is not a valid cursor' });
    }
    const otherFilters = await md(app, `/api/markets?limit=5&venue=venue_b&cursor=${encodeURIComponent(cursor)}`, key);
    expect(otherFilters.status).toBe(400);
    expect((otherFilters.body as { message: string }).message).toBe('cursor: was issued for other filters');
    const otherList = await md(app, `/api/events?limit=5&cursor=${encodeURIComponent(cursor)}`, key);
    expect(otherList.status).toBe(400);
    // A different page size is not a different filter: the cursor still holds its position.
    const wider = await page<Market>(`/api/markets?limit=6&venue=venue_a&cursor=${encodeURIComponent(cursor)}`);
    expect(wider.data[0]).toEqual(
      (await page<Market>(`/api/markets?limit=5&venue=venue_a&cursor=${encodeURIComponent(cursor)}`)).data[0],
    );
  });
});

describe('GET /api/markets', () => {
  it('filters before paginating: venue, status, min_volume, category', async () => {
    const all = (await walk<Market>('/api/markets', 200)).items;
    const byVenue = (await walk<Market>('/api/markets?venue=venue_b', 7)).items;
    expect(byVenue.length).toBe(all.filter((m) => m.venue === 'venue_b').length);
    expect(byVenue.every((m) => m.venue === 'venue_b')).toBe(true);

    const active = await page<Market>('/api/markets?status=active&limit=200');
    expect(active.total_count).toBe(all.filter((m) => m.status === 'active').length);

    const volumes = all.map((m) => m.volume ?? 0).sort((x, y) => x - y);
    const median = volumes[Math.floor(volumes.length / 2)];
    const rich = (await walk<Market>(`/api/markets?min_volume=${median}`, 7)).items;
    expect(rich.length).toBe(all.filter((m) => m.volume !== null && m.volume >= median).length);
    expect(rich.every((m) => m.volume! >= median)).toBe(true);

    const sports = new Set(app.services.world.coreEvents.filter((e) => e.category === 'sports').map((e) => e.id));
    const inSports = (await walk<Market>('/api/markets?category=sports', 7)).items;
    expect(inSports.length).toBe(all.filter((m) => sports.has(m.core_event_id)).length);
    expect(inSports.every((m) => sports.has(m.core_event_id))).toBe(true);

    for (const bad of ['venue=venue_c', 'status=open', 'min_volume=-1', 'min_volume=abc']) {
      expect((await md(app, `/api/markets?${bad}`, key)).status).toBe(400);
    }
  });

  it('serves one market with every documented field; bad venue 400, unknown 404', async () => {
    const [m] = (await page<Market>('/api/markets?limit=1&venue=venue_b')).data;
    const r = await md(app, `/api/markets/venue_b/${encodeURIComponent(m.venue_market_id)}`, key);
    expect(r.status).toBe(200);
    const body = r.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([...MARKET_FIELDS].sort());
    expect(body).toEqual(m);
    if (body.best_bid !== null && body.best_ask !== null) {
      expect(body.mid_price).toBeCloseTo(((body.best_bid as number) + (body.best_ask as number)) / 2, 6);
      expect(body.spread).toBeCloseTo((body.best_ask as number) - (body.best_bid as number), 6);
    }
    expect((await md(app, '/api/markets/venue_c/abc', key)).status).toBe(400);
    const missing = await md(app, '/api/markets/venue_a/no-such-market', key);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'not_found' });
  });
});

describe('GET /api/events and /api/events/categories', () => {
  it('lists events with id and title, filtered by category, and counts categories', async () => {
    const categories = (await md(app, '/api/events/categories', key)).body as MdCategoriesQuery['eventCategories'];
    const world = app.services.world.coreEvents;
    expect(categories.reduce((n, c) => n + c.count, 0)).toBe(world.length);
    for (const c of categories) {
      expect(c.count).toBe(world.filter((e) => e.category === c.category).length);
      const { items } = await walk<MdEventsQuery['marketDataEvents']['data'][number]>(
        `/api/events?category=${c.category}`,
        7,
      );
      expect(items).toHaveLength(c.count);
      for (const e of items)
        expect(e).toMatchObject({ id: expect.any(String), title: expect.any(String), category: c.category });
    }
    expect(categories.map((c) => c.count)).toEqual([...categories.map((c) => c.count)].sort((x, y) => y - x));
  });
});

describe('comparisons', () => {
  it('maps every matched core event once, with a verdict, bucket and subtag for every category', async () => {
    const { items } = await walk<Comparison>('/api/comparisons', 50);
    const matched = app.services.world.coreEvents.filter((e) => e.venueEventIds.venue_a && e.venueEventIds.venue_b);
    expect(items).toHaveLength(matched.length);
    expect(new Set(items.map((c) => `${c.venue_a_id}|${c.venue_b_id}`)).size).toBe(items.length);
    for (const c of items) {
      expect(Object.keys(c)).not.toContain('venue_a_markets');
      expect(['exact_match', 'similar']).toContain(c.relationship_type);
      expect(['high', 'medium', 'low']).toContain(c.confidence);
      expect(c.reasoning).toEqual(expect.any(String));
      expect(c.subtag).toEqual(expect.any(String));
    }
    const buckets = new Set(items.map((c) => c.bucket));
    expect(buckets).toEqual(new Set(matched.map((e) => e.category)));
  });

  it('filters by bucket, confidence and relationship_type', async () => {
    const all = (await walk<Comparison>('/api/comparisons', 200)).items;
    for (const q of [
      'bucket=crypto',
      'confidence=high',
      'relationship_type=similar',
      'bucket=economics&relationship_type=exact_match',
    ]) {
      const params = new URLSearchParams(q);
      const expected = all.filter((c) =>
        [...params].every(([k, v]) => (c as unknown as Record<string, unknown>)[k] === v),
      );
      const { items } = await walk<Comparison>(`/api/comparisons?${q}`, 7);
      expect(items.map((c) => c.id)).toEqual(expected.map((c) => c.id));
    }
    for (const bad of ['confidence=certain', 'relationship_type=same']) {
      expect((await md(app, `/api/comparisons?${bad}`, key)).status).toBe(400);
    }
  });

  it(
    "details a comparison with both venues' market summaries; 400 for a non-integer id, 404 for an unknown " + 'one',
    async () => {
      const [c] = (await page<Comparison>('/api/comparisons?limit=1&relationship_type=similar')).data;
      const r = await md(app, `/api/comparisons/${c.id}`, key);
      expect(r.status).toBe(200);
      const detail = r.body as MdComparisonQuery['comparison'];
      expect(detail).toMatchObject(c);
      expect(detail.venue_a_markets.length).toBeGreaterThan(0);
      expect(detail.venue_b_markets.length).toBeGreaterThan(0);
      for (const [venue, list] of [
        ['venue_a', detail.venue_a_markets],
        ['venue_b', detail.venue_b_markets],
      ] as const) {
        for (const m of list) {
          expect(Object.keys(m).sort()).toEqual([...SUMMARY_FIELDS].sort());
          expect(m.venue).toBe(venue);
        }
      }
      const stored = await app.services.db.prisma.market.findMany({
        where: { venue: 'venue_a', venueEventId: c.venue_a_id },
      });
      expect(detail.venue_a_markets).toHaveLength(stored.length);

      for (const bad of ['abc', '1.5', '0', '-3', '99999999999']) {
        const res = await md(app, `/api/comparisons/${bad}`, key);
        expect(res.status).toBe(400);
        expect((res.body as { message: string }).message).toMatch(/^comparison_id: /);
      }
      const unknown = await md(app, '/api/comparisons/999999', key);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ error: 'not_found' });
    },
  );

  it('keeps null prices null in market summaries', async () => {
    const [c] = (await page<Comparison>('/api/comparisons?limit=1')).data;
    const target = await app.services.db.prisma.market.findFirstOrThrow({
      where: { venue: 'venue_b', venueEventId: c.venue_b_id },
    });
    await app.services.db.prisma.market.update({ where: { id: target.id }, data: { bestBid: null, bestAsk: null } });
    // Catalog reads are cached per process until the catalog announces a change.
    await app.services.infra.pubsub.publish(CATALOG_CHANGED_TOPIC, { at: Date.now() });
    const m = await eventually(async () => {
      const detail = (await md(app, `/api/comparisons/${c.id}`, key)).body as MdComparisonQuery['comparison'];
      const found = detail.venue_b_markets.find((x) => x.venue_market_id === target.venueMarketId)!;
      return found.best_bid === null ? found : undefined;
    }, "the market's cleared quote in the comparison detail");
    expect(m).toMatchObject({ best_bid: null, best_ask: null, mid_price: null, spread: null });
    expect(m.volume).toEqual(expect.any(Number));
  });

  it('recomputes idempotently when the catalog is synced again: same ids, same verdicts', async () => {
    const rows = () =>
      app.services.db.prisma.comparison.findMany({
        orderBy: { id: 'asc' },
        select: {
          id: true,
          venueAEventId: true,
          venueBEventId: true,
          relationshipType: true,
          confidence: true,
          reasoning: true,
          bucket: true,
          subtag: true,
        },
      });
    const before = await rows();
    await app.services.get(CatalogService).sync(app.services.world);
    expect(await rows()).toEqual(before);
    expect((await walk<Comparison>('/api/comparisons', 200)).items.map((c) => c.id)).toEqual(before.map((r) => r.id));
  });
});
