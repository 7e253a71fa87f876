import { createClient } from 'graphql-sse';
import { http, startTestApp, type TestApp } from '../../utils/app';
import { openSse } from '../../utils/sse';

interface Item {
  id: string;
  source: string;
  externalId: string;
  title: string;
  category: string | null;
  coreEventId: string | null;
  mappingMethod: string | null;
}
interface Page {
  data: Item[];
  nextCursor: string | null;
  hasMore: boolean;
}

let app: TestApp;
let seq = 0;
beforeAll(async () => {
  app = await startTestApp({ FEED_INGEST_TOKEN: 'feed-test-token' });
});
afterAll(async () => {
  await app.close();
});

const item = (over: Record<string, unknown> = {}) => {
  seq += 1;
  return { source: 'wire', externalId: `x-${seq}`, title: `Unrelated note number ${seq}`, publishedAt: new Date(Date.now() - seq * 1000).toISOString(), ...over };
};
const ingest = (items: unknown[], token = 'feed-test-token') =>
  http(`${app.url}/api/feed/ingest`, { method: 'POST', json: { items }, headers: { 'x-feed-ingest-token': token } });

describe('POST /api/feed/ingest', () => {
  it('401 without or with a wrong token', async () => {
    expect((await http(`${app.url}/api/feed/ingest`, { method: 'POST', json: { items: [item()] } })).status).toBe(401);
    expect((await ingest([item()], 'wrong')).status).toBe(401);
  });

  it.each([
    [[{ ...item(), title: undefined }], /^items\.0\.title: /],
    [[item(), { ...item(), publishedAt: 'yesterday' }], /^items\.1\.publishedAt: /],
    [[{ ...item(), source: 'Bad Source' }], /^items\.0\.source: /],
    [[{ ...item(), url: 'ftp://x' }], /^items\.0\.url: /],
    [[], /^items: /],
  ])('400 naming the field, nothing written (%#)', async (items, message) => {
    const before = await app.services.db.prisma.feedItem.count();
    const r = await ingest(items);
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(message);
    expect(await app.services.db.prisma.feedItem.count()).toBe(before);
  });

  it('stores a batch once, maps items to events by the given id or by their words, and counts duplicates', async () => {
    const [named, other] = app.services.world.coreEvents;
    const batch = [
      item({ coreEventId: named!.slug, title: 'A note about it' }),
      item({ title: `Breaking: ${other!.title}`, summary: 'analysts weigh in' }),
      item({ title: 'Completely unrelated gardening tips' }),
    ];
    const first = await ingest(batch);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: 3, inserted: 3, duplicates: 0, mapped: 2 });
    const again = await ingest(batch);
    expect(again.body).toEqual({ received: 3, inserted: 0, duplicates: 3, mapped: 0 });
    const stored = await app.services.db.prisma.feedItem.findMany({
      where: { externalId: { in: batch.map((b) => b.externalId as string) } },
      orderBy: { id: 'asc' },
    });
    expect(stored.map((s) => [s.coreEventId, s.mappingMethod])).toEqual([
      [named!.id, 'given'],
      [other!.id, 'matched'],
      [null, null],
    ]);
    expect(stored[0]!.category).toBe(named!.category);
  });
});

describe('GET /api/feed', () => {
  beforeAll(async () => {
    await ingest(Array.from({ length: 10 }, (_, i) => item({ source: 'walk', category: i % 2 ? 'crypto' : 'sports' })));
  });

  it('walks every item exactly once, newest first, with limit 3', async () => {
    const seen: Item[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const qs: string = `source=walk&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = (await http(`${app.url}/api/feed?${qs}`)).body as Page;
      seen.push(...page.data);
      expect(page.hasMore).toBe(page.nextCursor !== null);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toHaveLength(10);
    expect(new Set(seen.map((s) => s.id)).size).toBe(10);
    const ids = seen.map((s) => BigInt(s.id));
    expect([...ids].sort((a, b) => (a > b ? -1 : 1))).toEqual(ids);
  });

  it('filters, re-fetches a page from its cursor, refuses tampered or re-filtered cursors', async () => {
    const crypto = (await http(`${app.url}/api/feed?source=walk&category=crypto&limit=2`)).body as Page;
    expect(crypto.data.every((i) => i.category === 'crypto')).toBe(true);
    const next = `${app.url}/api/feed?source=walk&category=crypto&limit=2&cursor=${encodeURIComponent(crypto.nextCursor!)}`;
    expect((await http(next)).body).toEqual((await http(next)).body);
    const otherFilters = await http(`${app.url}/api/feed?source=walk&category=sports&limit=2&cursor=${encodeURIComponent(crypto.nextCursor!)}`);
    expect(otherFilters.status).toBe(400);
    expect((otherFilters.body as { message: string }).message).toMatch(/^cursor: /);
    const tampered = crypto.nextCursor!.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    expect((await http(`${app.url}/api/feed?source=walk&category=crypto&limit=2&cursor=${tampered}`)).status).toBe(400);
    expect((await http(`${app.url}/api/feed?limit=201`)).status).toBe(400);
  });

  it('filters by core_event_id', async () => {
    const ce = app.services.world.coreEvents[5]!;
    await ingest([item({ coreEventId: ce.id })]);
    const page = (await http(`${app.url}/api/feed?core_event_id=${ce.id}`)).body as Page;
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((i) => i.coreEventId === ce.id)).toBe(true);
  });
});

describe('GET /api/feed/{id} and /api/feed/quality', () => {
  it('returns an item or 404', async () => {
    const page = (await http(`${app.url}/api/feed?limit=1`)).body as Page;
    const one = await http(`${app.url}/api/feed/${page.data[0]!.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(page.data[0]);
    expect((await http(`${app.url}/api/feed/999999999`)).status).toBe(404);
    expect((await http(`${app.url}/api/feed/not-a-number`)).status).toBe(404);
  });

  it('reports mapping rate, per-source counts, duplicates and freshness', async () => {
    const q = (await http(`${app.url}/api/feed/quality`)).body as {
      items: number;
      mapped: number;
      mappingRate: number;
      duplicatesRejected: number;
      sources: { source: string; items: number; freshnessSeconds: number | null }[];
    };
    const total = await app.services.db.prisma.feedItem.count();
    const mapped = await app.services.db.prisma.feedItem.count({ where: { coreEventId: { not: null } } });
    expect(q.items).toBe(total);
    expect(q.mapped).toBe(mapped);
    expect(q.mappingRate).toBeCloseTo(mapped / total, 4);
    expect(q.duplicatesRejected).toBeGreaterThanOrEqual(3);
    expect(q.sources.map((s) => s.source)).toEqual(expect.arrayContaining(['walk', 'wire']));
    expect(q.sources.find((s) => s.source === 'walk')!.items).toBe(10);
  });
});

describe('GET /api/feed/stream', () => {
  it('streams new items, and resumes after Last-Event-ID from the database', async () => {
    const sse = await openSse(`${app.url}/api/feed/stream?source=live`);
    expect(sse.status).toBe(200);
    await ingest([item({ source: 'live' }), item({ source: 'other' }), item({ source: 'live' })]);
    const [a, b] = await sse.take(2);
    sse.close();
    expect(a!.event).toBe('feed_item');
    expect(JSON.parse(a!.data).source).toBe('live');
    expect(BigInt(b!.id!)).toBeGreaterThan(BigInt(a!.id!));

    // Missed while disconnected: two more; the resumed stream replays them, then goes live.
    await ingest([item({ source: 'live' }), item({ source: 'live' })]);
    const resumed = await openSse(`${app.url}/api/feed/stream?source=live`, { headers: { 'last-event-id': a!.id! } });
    const replayed = await resumed.take(3);
    expect(replayed.map((m) => m.id)[0]).toBe(b!.id);
    await ingest([item({ source: 'live' })]);
    const [live] = await resumed.take(1);
    resumed.close();
    const ids = [...replayed, live!].map((m) => BigInt(m.id!));
    expect([...ids].sort((x, y) => (x < y ? -1 : 1))).toEqual(ids);
    expect(new Set(ids).size).toBe(4);
  });

  it('400 for a malformed Last-Event-ID', async () => {
    const r = await http(`${app.url}/api/feed/stream`, { headers: { 'last-event-id': 'abc', accept: 'text/event-stream' } });
    expect(r.status).toBe(400);
  });

  it('feeds the GraphQL subscription from the same topic', async () => {
    const client = createClient({ url: `${app.url}/graphql/stream`, retryAttempts: 0 });
    const got = new Promise<{ title: string }>((resolve, reject) => {
      const stop = client.subscribe<{ feedItems: { title: string } }>(
        { query: 'subscription { feedItems(source: "gql") { id title } }' },
        { next: (v) => (stop(), resolve(v.data!.feedItems)), error: reject, complete: () => undefined },
      );
    });
    // Publish until the subscription is live (it is set up asynchronously).
    const timer = setInterval(() => void ingest([item({ source: 'gql', title: 'Via GraphQL' })]), 200);
    try {
      expect((await got).title).toBe('Via GraphQL');
    } finally {
      clearInterval(timer);
      client.dispose();
    }
  });
});

describe('ingestFeed over GraphQL', () => {
  it('validates nested items with the same bounds', async () => {
    const r = await http(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'x-feed-ingest-token': 'feed-test-token' },
      json: {
        query: 'mutation($items: [FeedItemInput!]!) { ingestFeed(items: $items) { inserted } }',
        variables: { items: [item(), item({ title: 'x'.repeat(301) })] },
      },
    });
    const body = r.body as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]!.extensions.code).toBe('bad_request');
    expect(body.errors[0]!.message).toMatch(/^items\.1\.title: /);
  });
});
