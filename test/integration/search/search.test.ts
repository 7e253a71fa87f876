import type { SearchEventsQuery } from '../../../schema/generated/operations';
import { CatalogService } from '../../../src/modules/ingestion/catalog.service';
import { SEARCH_LIMITS } from '../../../src/modules/search';
import { SearchService } from '../../../src/modules/search/search.service';
import { http, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';
import { pinnedWorld } from '../../support/pinned-world';

type Result = SearchEventsQuery['searchEvents'];

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, {}, pinnedWorld());
});
afterAll(async () => {
  await app.close();
});

const search = (qs: string) => http(`${app.url}/api/events/search?${qs}`);

describe('GET /api/events/search', () => {
  it('ranks events by similarity to the query, best first', async () => {
    const r = await search(`q=${encodeURIComponent('btc price at the end of march 2027')}`);
    expect(r.status).toBe(200);
    const body = r.body as Result;
    expect(body.data[0].event.slug).toBe('bitcoin-price-on-march-31-2027');
    expect(body).toMatchObject({
      query: 'btc price at the end of march 2027',
      limit: SEARCH_LIMITS.limit.default,
      threshold: SEARCH_LIMITS.threshold.default,
      provider: 'local',
      model: 'local-hash-v1',
      method: app.services.db.hasVector ? 'pgvector' : 'exact',
    });
    const scores = body.data.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(scores.every((s) => s >= SEARCH_LIMITS.threshold.default && s <= 1)).toBe(true);
    expect(body.data[0].event.markets.length).toBeGreaterThan(0);
  });

  it('honours limit and threshold', async () => {
    const three = (await search('q=election&limit=3&threshold=0')).body as Result;
    expect(three.data).toHaveLength(3);
    const strict = (await search('q=election&limit=100&threshold=0.3')).body as Result;
    expect(strict.data.every((h) => h.score >= 0.3)).toBe(true);
    const all = (await search('q=election&limit=100&threshold=0')).body as Result;
    expect(all.data.length).toBeGreaterThan(strict.data.length);
    expect((await search('q=zzqx%20vvkq&threshold=0.2')).body).toMatchObject({ data: [] });
  });

  it.each([
    ['', 'q'],
    ['q=', 'q'],
    ['q=%20%20%20', 'q'],
    [`q=${'x'.repeat(201)}`, 'q'],
    ['q=a&limit=0', 'limit'],
    ['q=a&limit=101', 'limit'],
    ['q=a&limit=2.5', 'limit'],
    ['q=a&threshold=-0.1', 'threshold'],
    ['q=a&threshold=1.01', 'threshold'],
    ['q=a&threshold=high', 'threshold'],
  ])('400 naming the field for "%s"', async (qs, field) => {
    const r = await search(qs);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'bad_request', message: expect.stringMatching(new RegExp(`^${field}: `)) });
  });

  it('accepts the bounds themselves', async () => {
    expect((await search(`q=${'x'.repeat(200)}&limit=100&threshold=1`)).status).toBe(200);
    expect((await search('q=x&limit=1&threshold=0')).status).toBe(200);
  });

  it('is the same answer through GraphQL, with the same 400s', async () => {
    const rest = await search('q=fed%20rate%20cut&limit=5&threshold=0');
    const query =
      `query($q: String!) { searchEvents(q: $q, limit: 5, threshold: 0) { data { score event { id slug title ` +
      `description category sourceType closeTime activityScore updatedAt markets { venue marketId title status ` +
      `outcomes yesPrice } } } query limit threshold provider model method } }`;
    const viaGraphql = await gql<SearchEventsQuery>(app, query, { q: 'fed rate cut' });
    expect(viaGraphql.body.data!.searchEvents).toEqual(rest.body);
    for (const [args, field] of [
      ['q: "  "', 'q'],
      ['q: "a", limit: 101', 'limit'],
      ['q: "a", threshold: 2', 'threshold'],
    ]) {
      const bad = await gql(app, `{ searchEvents(${args}) { query } }`);
      expect(bad.body.errors![0]).toMatchObject({
        message: expect.stringMatching(new RegExp(`^${field}: `)),
        extensions: { code: 'bad_request' },
      });
    }
  });
});

describe('the vector index', () => {
  it('holds one vector per event, for the configured embedder', async () => {
    const rows = await app.services.db.prisma.eventEmbedding.findMany();
    expect(rows).toHaveLength(await app.services.db.prisma.coreEvent.count());
    expect(
      rows.every(
        (r) => r.provider === 'local' && r.model === 'local-hash-v1' && r.dimension === 384 && r.values.length === 384,
      ),
    ).toBe(true);
    expect(await app.services.get(SearchService).refreshIndex()).toEqual({ events: rows.length, embedded: 0 });
  });

  it('refreshes the vector of an event whose text changed, and the catalog sync does it by itself', async () => {
    const { prisma } = app.services.db;
    const target = await prisma.coreEvent.findFirstOrThrow({ where: { slug: 'boston-snowfall-in-december-2026' } });
    const before = await prisma.eventEmbedding.findUniqueOrThrow({ where: { eventId: target.id } });
    await prisma.coreEvent.update({
      where: { id: target.id },
      data: { title: 'Zorblax quantum teleportation contest', description: '' },
    });
    expect(await app.services.get(SearchService).refreshIndex()).toMatchObject({ embedded: 1 });
    const after = await prisma.eventEmbedding.findUniqueOrThrow({ where: { eventId: target.id } });
    expect(after.contentHash).not.toBe(before.contentHash);
    const found = (await search('q=zorblax%20teleportation')).body as Result;
    expect(found.data[0].event.id).toBe(target.id);

    // A catalog sync writes the venue's wording back and schedules the refresh.
    await app.services.get(CatalogService).sync(app.services.world);
    await app.services.get(SearchService).whenIdle();
    const restored = await prisma.eventEmbedding.findUniqueOrThrow({ where: { eventId: target.id } });
    expect(restored.contentHash).toBe(before.contentHash);
    const again = (await search(`q=${encodeURIComponent('how much snow will boston get in december')}`)).body as Result;
    expect(again.data[0].event.id).toBe(target.id);
  });
});
