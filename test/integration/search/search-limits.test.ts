import type { SearchEventsQuery } from '../../../schema/generated/operations';
import { LocalEmbedder } from '../../../src/modules/search';
import { http, startTestApp, type TestApp } from '../../support/app';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream';
import { gql } from '../../support/graphql';
import { pinnedWorld } from '../../support/pinned-world';

/**
 * Search is limited per client (`SEARCH_RATE_LIMIT`, 60 a minute: the user when a user token is
 * sent, else the client address; 429 with Retry-After beyond) and query vectors are cached by
 * normalised text (`SEARCH_EMBEDDING_CACHE_SIZE`), so repeated queries cost the embedding provider
 * one call. The provider is an OpenAI-style API on port 0 that embeds with the local embedder.
 */
let api: FakeUpstream;
const local = new LocalEmbedder();

/** The query texts the provider was asked to embed (index batches excluded: those have many inputs). */
function queryCalls(): string[] {
  return api.requests
    .map((r) => (r.body as { input?: string[] }).input ?? [])
    .filter((input) => input.length === 1)
    .map((input) => input[0]);
}

beforeAll(async () => {
  api = await startFakeUpstream(async (req) => {
    const input = (req.body as { input?: string[] }).input ?? [];
    const vectors = await local.embed(input);
    return { body: { data: vectors.map((embedding, index) => ({ index, embedding })) } };
  });
});
afterAll(() => api.close());

const remote = (extra: Record<string, string> = {}) => ({
  EMBEDDINGS_PROVIDER: 'remote',
  EMBEDDINGS_API_URL: `${api.url}/v1/embeddings`,
  EMBEDDINGS_API_KEY: 'sk-test',
  EMBEDDINGS_MODEL: 'test-embed-1',
  EMBEDDINGS_TIMEOUT_MS: '5000',
  ...extra,
});

const search = (app: TestApp, q: string, headers: Record<string, string> = {}) =>
  http(`${app.url}/api/events/search?q=${encodeURIComponent(q)}&limit=3`, { headers });

describe('search query embeddings are cached', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(remote(), {}, pinnedWorld());
  });
  afterAll(() => app.close());

  it('asks the provider once for normalised-equal queries, sent one after another or at once', async () => {
    const before = queryCalls().length;
    const spellings = ['Bitcoin price March 2027', '  bitcoin   PRICE march 2027 ', 'ＢＩＴＣＯＩＮ price march 2027'];
    const first = await search(app, spellings[0]);
    expect(first.status).toBe(200);
    const slugs = (first.body as SearchEventsQuery['searchEvents']).data.map((h) => h.event.slug);
    for (const q of spellings) {
      const r = await search(app, q);
      expect(r.status).toBe(200);
      expect((r.body as SearchEventsQuery['searchEvents']).data.map((h) => h.event.slug)).toEqual(slugs);
      expect(r.body).toMatchObject({ query: q.trim() });
    }
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => search(app, spellings[i % 3])));
    expect(burst.every((r) => r.status === 200)).toBe(true);
    expect(queryCalls().slice(before)).toEqual(['bitcoin price march 2027']);

    // Identical new queries asked together share one call too.
    const together = await Promise.all(Array.from({ length: 10 }, () => search(app, 'Fed rate decision')));
    expect(together.every((r) => r.status === 200)).toBe(true);
    expect(queryCalls().slice(before)).toEqual(['bitcoin price march 2027', 'fed rate decision']);
  });

  it('asks again after a failure (failures are not kept)', async () => {
    api.handle(() => ({ status: 500, body: { error: 'boom' } }));
    expect((await search(app, 'jobless rate')).status).toBe(502);
    api.handle(async (req) => {
      const vectors = await local.embed((req.body as { input: string[] }).input);
      return { body: { data: vectors.map((embedding, index) => ({ index, embedding })) } };
    });
    expect((await search(app, 'jobless rate')).status).toBe(200);
    expect(queryCalls().filter((q) => q === 'jobless rate')).toHaveLength(2);
  });
});

describe('search rate limit per client', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(remote({ EMBEDDINGS_PROVIDER: 'local' }), {}, pinnedWorld());
  });
  afterAll(() => app.close());

  it('answers a burst from one address 60 times, then 429 with Retry-After (REST and GraphQL alike)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 70; i++) statuses.push((await search(app, `bitcoin ${i % 5}`)).status);
    expect(statuses.slice(0, 60)).toEqual(Array(60).fill(200));
    expect(statuses.slice(60)).toEqual(Array(10).fill(429));
    const over = await search(app, 'bitcoin');
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: 'rate_limited', message: expect.stringMatching(/rate limit exceeded/) });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    const viaGraphql = await gql(app, '{ searchEvents(q: "bitcoin") { query } }');
    expect(viaGraphql.body.errors![0].extensions.code).toBe('rate_limited');
  });

  it('counts a user by their token, apart from their address; a bad token is counted by address', async () => {
    const asUser = await search(app, 'bitcoin', await app.bearer('searcher'));
    expect(asUser.status).toBe(200);
    const badToken = await search(app, 'bitcoin', { authorization: 'Bearer not-a-token' });
    expect(badToken.status).toBe(429);
  });
});
