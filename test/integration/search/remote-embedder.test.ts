import type { SearchEventsQuery } from '../../../schema/generated/operations';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { cosine, LocalEmbedder, RemoteEmbedder } from '../../../src/modules/search';
import { http, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';
import { pinnedWorld } from '../../support/pinned-world';
import { SearchService } from '../../../src/modules/search/search.service';

/**
 * A stand-in for an OpenAI-style embeddings API on port 0. It embeds with the
 * local embedder, so results are meaningful; `mode` switches failures on.
 */
interface FakeApi {
  url: string;
  mode: 'ok' | 'error' | 'hang' | 'garbage';
  requests: { authorization: string | undefined; model: unknown; inputs: number }[];
  close(): Promise<void>;
}

async function startFakeApi(): Promise<FakeApi> {
  const local = new LocalEmbedder();
  const sockets = new Set<Socket>();
  const api: FakeApi = { url: '', mode: 'ok', requests: [], close: async () => undefined };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as { model?: unknown; input?: string[] };
      api.requests.push({
        authorization: req.headers.authorization,
        model: body.model,
        inputs: body.input?.length ?? 0,
      });
      if (api.mode === 'hang') return; // never answers: the client's timeout must fire
      if (api.mode === 'error') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}');
        return;
      }
      if (api.mode === 'garbage') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"embedding":"nope"}]}');
        return;
      }
      void local.embed(body.input ?? []).then((vectors) => {
        // Reversed with explicit indexes: the client must place vectors by index.
        const data = vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse();
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ object: 'list', data, model: body.model }));
      });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/embeddings`;
  api.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return api;
}

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(async () => {
  await api.close();
});

const remoteEnv = (extra: Record<string, string> = {}) => ({
  EMBEDDINGS_PROVIDER: 'remote',
  EMBEDDINGS_API_URL: api.url,
  EMBEDDINGS_MODEL: 'test-embed-1',
  EMBEDDINGS_TIMEOUT_MS: '300',
  ...extra,
});

describe('remote embeddings provider', () => {
  let app: TestApp;
  beforeAll(async () => {
    api.mode = 'ok';
    const p = pinnedWorld();
    // Indexing the catalog at start must not time out on a busy machine: a wider timeout than the default here.
    app = await startTestApp(remoteEnv({ EMBEDDINGS_API_KEY: 'sk-test-key', EMBEDDINGS_TIMEOUT_MS: '3000' }), {}, p);
    await app.services.get(SearchService).whenIdle();
  });
  afterAll(async () => {
    await app.close();
  });

  it('indexes the catalog and answers searches through the API, with the key', async () => {
    api.mode = 'ok';
    expect(api.requests.length).toBeGreaterThan(0);
    expect(api.requests.every((r) => r.authorization === 'Bearer sk-test-key' && r.model === 'test-embed-1')).toBe(
      true,
    );
    const rows = await app.services.db.prisma.eventEmbedding.findMany({ select: { provider: true, model: true } });
    expect(rows).toHaveLength(await app.services.db.prisma.coreEvent.count());
    expect(rows.every((r) => r.provider === 'remote' && r.model === 'test-embed-1')).toBe(true);

    const r = await http(`${app.url}/api/events/search?q=${encodeURIComponent('jobless rate november 2026')}&limit=3`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ provider: 'remote', model: 'test-embed-1' });
    expect((r.body as SearchEventsQuery['searchEvents']).data[0].event.slug).toBe(
      'us-unemployment-rate-for-november-2026',
    );
    expect(api.requests.at(-1)).toMatchObject({ inputs: 1 });
  });

  it('answers 502 when the API fails', async () => {
    api.mode = 'error';
    const r = await http(`${app.url}/api/events/search?q=bitcoin`);
    expect(r.status).toBe(502);
    expect(r.body).toEqual({ error: 'upstream_error', message: expect.stringContaining('500') });
    api.mode = 'garbage';
    expect((await http(`${app.url}/api/events/search?q=bitcoin`)).status).toBe(502);
  });

  it('answers 502 when the API does not answer in time', async () => {
    api.mode = 'hang';
    const r = await http(`${app.url}/api/events/search?q=bitcoin`);
    expect(r.status).toBe(502);
    expect(r.body).toEqual({ error: 'upstream_error', message: expect.stringContaining('timed out') });
    api.mode = 'ok';
  });
});

describe('remote provider down while the catalog is indexed', () => {
  it('answers 502 meanwhile, then retries the index once the API is back', async () => {
    api.mode = 'error';
    const p = pinnedWorld();
    // The catalog is indexed again through the API once it is back: a timeout a busy machine does not miss.
    const app = await startTestApp(remoteEnv({ EMBEDDINGS_API_KEY: 'k', EMBEDDINGS_TIMEOUT_MS: '3000' }), {}, p);
    try {
      expect(await app.services.db.prisma.eventEmbedding.count()).toBe(0);
      expect((await http(`${app.url}/api/events/search?q=bitcoin`)).status).toBe(502);
      api.mode = 'ok';
      // Within a minute of the failure the index is not retried: the search works but finds nothing yet.
      expect((await http(`${app.url}/api/events/search?q=bitcoin`)).body).toMatchObject({ data: [] });
      p.clock.ms += 61_000;
      const r = await http(`${app.url}/api/events/search?q=${encodeURIComponent('bitcoin price march 2027')}&limit=1`);
      expect((r.body as SearchEventsQuery['searchEvents']).data[0].event.slug).toBe('bitcoin-price-on-march-31-2027');
      expect(await app.services.db.prisma.eventEmbedding.count()).toBe(await app.services.db.prisma.coreEvent.count());
    } finally {
      api.mode = 'ok';
      await app.close();
    }
  });
});

describe('remote provider without a key', () => {
  it('starts, and answers searches with 503 (REST and GraphQL)', async () => {
    api.mode = 'ok';
    const before = api.requests.length;
    const app = await startTestApp(remoteEnv(), {}, pinnedWorld());
    try {
      await app.services.get(SearchService).whenIdle();
      const r = await http(`${app.url}/api/events/search?q=bitcoin`);
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ error: 'unavailable', message: 'search: the embedding key is not configured' });
      const viaGraphql = await gql(app, '{ searchEvents(q: "bitcoin") { query } }');
      expect(viaGraphql.body.errors![0].extensions.code).toBe('unavailable');
      expect(api.requests.length).toBe(before); // never called without a key
    } finally {
      await app.close();
    }
  });
});

describe('RemoteEmbedder', () => {
  it('normalizes vectors and places them by index', async () => {
    api.mode = 'ok';
    const e = new RemoteEmbedder({ url: api.url, apiKey: 'k', model: 'm', timeoutMs: 2000 });
    const [a, b] = await e.embed(['bitcoin', 'ethereum']);
    const [la, lb] = await new LocalEmbedder().embed(['bitcoin', 'ethereum']);
    // Re-normalizing a unit vector may move its last bit: compare by direction.
    expect(cosine(a, la)).toBeCloseTo(1, 12);
    expect(cosine(b, lb)).toBeCloseTo(1, 12);
    expect(Math.hypot(...a)).toBeCloseTo(1, 12);
  });

  it('answers 502 when the API cannot be reached', async () => {
    const e = new RemoteEmbedder({ url: 'http://127.0.0.1:1/v1/embeddings', apiKey: 'k', model: 'm', timeoutMs: 2000 });
    await expect(e.embed(['x'])).rejects.toMatchObject({ code: 'upstream_error' });
  });
});
