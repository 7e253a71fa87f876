import type { FeedQualityQuery, FeedQuery } from '../../../schema/generated/operations';
import { createClient } from 'graphql-sse';
import { EventMatcher, significantWords, type MatchableEvent } from '../../../src/modules/feed/feed-event-matcher';
import { http, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';
import { openSse } from '../../support/sse';
import { FeedService } from '../../../src/modules/feed/feed.service';

type Page = FeedQuery['feed'];
type Item = Page['data'][number];

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
  return {
    source: 'wire',
    externalId: `x-${seq}`,
    title: `Unrelated note number ${seq}`,
    publishedAt: new Date(Date.now() - seq * 1000).toISOString(),
    ...over,
  };
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
      item({ coreEventId: named.slug, title: 'A note about it' }),
      item({ title: `Breaking: ${other.title}`, summary: 'analysts weigh in' }),
      item({ title: 'Completely unrelated gardening tips' }),
    ];
    const first = await ingest(batch);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: 3, inserted: 3, duplicates: 0, mapped: 2 });
    const again = await ingest(batch);
    expect(again.body).toEqual({ received: 3, inserted: 0, duplicates: 3, mapped: 0 });
    const stored = await app.services.db.prisma.feedItem.findMany({
      where: { externalId: { in: batch.map((b) => b.externalId) } },
      orderBy: { id: 'asc' },
    });
    expect(stored.map((s) => [s.coreEventId, s.mappingMethod])).toEqual([
      [named.id, 'given'],
      [other.id, 'matched'],
      [null, null],
    ]);
    expect(stored[0].category).toBe(named.category);
  });
});

describe('mapping a batch to events', () => {
  /** The matcher as it was: every event title tokenised for every item. */
  function naiveMatch(item: { title: string; summary?: string; category?: string }, events: readonly MatchableEvent[]) {
    const words = significantWords(`${item.title} ${item.summary ?? ''}`);
    let best: { eventId: string; score: number } | null = null;
    for (const e of events) {
      if (item.category !== undefined && item.category !== e.category) continue;
      const eventWords = significantWords(e.title);
      if (eventWords.size === 0) continue;
      let shared = 0;
      for (const w of eventWords) if (words.has(w)) shared += 1;
      const coverage = shared / eventWords.size;
      if (shared < 2 || coverage < 0.4) continue;
      const score = coverage + shared / 100;
      if (!best || score > best.score || (score === best.score && e.id < best.eventId)) best = { eventId: e.id, score };
    }
    return best;
  }

  it('the word index matches exactly as scanning every event did', async () => {
    const events = await app.services.db.prisma.coreEvent.findMany({
      select: { id: true, slug: true, title: true, category: true },
    });
    const matcher = new EventMatcher(events);
    const probes = events.flatMap((e, k) => {
      const words = e.title.split(' ');
      const other = events[(k + 7) % events.length];
      return [
        { title: e.title },
        { title: `Breaking: ${e.title}`, summary: 'analysts weigh in' },
        { title: words.slice(0, Math.ceil(words.length / 2)).join(' ') },
        { title: `${words.slice(-3).join(' ')} ${other.title}` },
        { title: e.title, category: e.category },
        { title: e.title, category: 'no-such-category' },
        { title: 'Completely unrelated gardening tips' },
      ];
    });
    for (const p of probes) expect(matcher.match(p)).toEqual(naiveMatch(p, events));
  });

  it('tokenises each event title once per batch, not once per item', async () => {
    const events = await app.services.db.prisma.coreEvent.count();
    const batch = Array.from({ length: 200 }, () => item({ source: 'cost' }));
    // significantWords() normalises each text once: count the texts tokenised.
    const normalize = jest.spyOn(String.prototype, 'normalize');
    try {
      await app.services.get(FeedService).ingest(batch.map((b) => ({ ...b, publishedAt: new Date(b.publishedAt) })));
      expect(normalize.mock.calls.length).toBeLessThanOrEqual(batch.length + events + 10);
    } finally {
      normalize.mockRestore();
    }
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
    const cursor = encodeURIComponent(crypto.nextCursor!);
    const next = `${app.url}/api/feed?source=walk&category=crypto&limit=2&cursor=${cursor}`;
    expect((await http(next)).body).toEqual((await http(next)).body);
    const otherFilters = await http(
      `${app.url}/api/feed?source=walk&category=sports&limit=2&cursor=${encodeURIComponent(crypto.nextCursor!)}`,
    );
    expect(otherFilters.status).toBe(400);
    expect((otherFilters.body as { message: string }).message).toMatch(/^cursor: /);
    const tampered = crypto.nextCursor!.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    expect((await http(`${app.url}/api/feed?source=walk&category=crypto&limit=2&cursor=${tampered}`)).status).toBe(400);
    expect((await http(`${app.url}/api/feed?limit=201`)).status).toBe(400);
  });

  it('filters by core_event_id', async () => {
    const ce = app.services.world.coreEvents[5];
    await ingest([item({ coreEventId: ce.id })]);
    const page = (await http(`${app.url}/api/feed?core_event_id=${ce.id}`)).body as Page;
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((i) => i.coreEventId === ce.id)).toBe(true);
  });
});

describe('GET /api/feed/{id} and /api/feed/quality', () => {
  it('returns an item or 404', async () => {
    const page = (await http(`${app.url}/api/feed?limit=1`)).body as Page;
    const one = await http(`${app.url}/api/feed/${page.data[0].id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(page.data[0]);
    expect((await http(`${app.url}/api/feed/999999999`)).status).toBe(404);
    expect((await http(`${app.url}/api/feed/not-a-number`)).status).toBe(404);
  });

  it.each(['9223372036854775807', '9223372036854775808', '9999999999999999999'])(
    '404 (not 500) for id %s, at or beyond int64',
    async (id) => {
      const r = await http(`${app.url}/api/feed/${id}`);
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ error: 'not_found' });
      const viaGraphql = await gql(app, 'query($id: String!) { feedItem(id: $id) { id } }', { id });
      expect(viaGraphql.body.errors![0].extensions.code).toBe('not_found');
    },
  );

  it("reports each source's latest publishedAt and its freshness in seconds", async () => {
    const base = Math.floor(Date.now() / 1000) * 1000;
    const older = new Date(base - 3_600_000).toISOString();
    const latest = new Date(base - 90_000).toISOString();
    await ingest([
      item({ source: 'fresh', publishedAt: older }),
      item({ source: 'fresh', publishedAt: latest }),
      item({ source: 'future', publishedAt: new Date(base + 600_000).toISOString() }),
    ]);
    const before = Date.now();
    const q = (await http(`${app.url}/api/feed/quality`)).body as FeedQualityQuery['feedQuality'];
    const after = Date.now();
    const fresh = q.sources.find((x) => x.source === 'fresh')!;
    expect(fresh).toMatchObject({ items: 2, latestPublishedAt: latest });
    expect(fresh.freshnessSeconds).toBeGreaterThanOrEqual(Math.round((before - Date.parse(latest)) / 1000));
    expect(fresh.freshnessSeconds).toBeLessThanOrEqual(Math.round((after - Date.parse(latest)) / 1000));
    expect(fresh.freshnessSeconds).toBe(Math.max(0, Math.round((Date.parse(q.checkedAt) - Date.parse(latest)) / 1000)));
    expect(Date.parse(fresh.latestIngestedAt!)).toBeLessThanOrEqual(after);
    // Published "in the future" (a producer's clock ahead): never a negative freshness.
    expect(q.sources.find((x) => x.source === 'future')).toMatchObject({ items: 1, freshnessSeconds: 0 });
  });

  it('reports mapping rate, per-source counts, duplicates and freshness', async () => {
    const q = (await http(`${app.url}/api/feed/quality`)).body as FeedQualityQuery['feedQuality'];
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
    expect(a.event).toBe('feed_item');
    expect(JSON.parse(a.data).source).toBe('live');
    expect(BigInt(b.id!)).toBeGreaterThan(BigInt(a.id!));

    // Missed while disconnected: two more; the resumed stream replays them, then goes live.
    await ingest([item({ source: 'live' }), item({ source: 'live' })]);
    const resumed = await openSse(`${app.url}/api/feed/stream?source=live`, { headers: { 'last-event-id': a.id! } });
    const replayed = await resumed.take(3);
    expect(replayed.map((m) => m.id)[0]).toBe(b.id);
    await ingest([item({ source: 'live' })]);
    const [live] = await resumed.take(1);
    resumed.close();
    const ids = [...replayed, live].map((m) => BigInt(m.id!));
    expect([...ids].sort((x, y) => (x < y ? -1 : 1))).toEqual(ids);
    expect(new Set(ids).size).toBe(4);
  });

  it.each(['abc', '-1', '9223372036854775808', '9999999999999999999'])(
    '400 naming Last-Event-ID for %j',
    async (id) => {
      const r = await http(`${app.url}/api/feed/stream`, {
        headers: { 'last-event-id': id, accept: 'text/event-stream' },
      });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: 'bad_request', message: expect.stringMatching(/^Last-Event-ID: /) });
    },
  );

  it('accepts the largest int64 as Last-Event-ID (nothing to replay)', async () => {
    const sse = await openSse(`${app.url}/api/feed/stream`, { headers: { 'last-event-id': '9223372036854775807' } });
    expect(sse.status).toBe(200);
    sse.close();
  });

  it('feeds the GraphQL `feed` subscription from the same topic', async () => {
    const client = createClient({ url: `${app.url}/graphql/stream`, retryAttempts: 0 });
    const got = new Promise<{ title: string }>((resolve, reject) => {
      const stop = client.subscribe<{ feed: { title: string } }>(
        { query: 'subscription { feed(source: "gql") { id title } }' },
        { next: (v) => (stop(), resolve(v.data!.feed)), error: reject, complete: () => undefined },
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
    const r = await gql(
      app,
      'mutation($items: [FeedItemInput!]!) { ingestFeed(items: $items) { inserted } }',
      { items: [item(), item({ title: 'x'.repeat(301) })] },
      { 'x-feed-ingest-token': 'feed-test-token' },
    );
    expect(r.body.errors![0].extensions.code).toBe('bad_request');
    expect(r.body.errors![0].message).toMatch(/^items\.1\.title: /);
  });
});
