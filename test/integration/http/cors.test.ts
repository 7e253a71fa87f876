import { ConfigError, loadConfig } from '../../../src/config';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from '../../../src/http/cors';
import { startTestApp, type TestApp } from '../../support/app';

const ALLOWED = 'https://app.example.com';
const OTHER = 'https://evil.example.net';

function preflight(url: string, origin: string, method: string, headers: string): Promise<Response> {
  return fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

/** The CORS headers of an answer, by lower-case name. */
function corsHeaders(res: Response): Record<string, string> {
  return Object.fromEntries([...res.headers].filter(([name]) => name.startsWith('access-control-')));
}

const list = (value: string | null): string[] => (value ?? '').split(',').map((h) => h.trim().toLowerCase());

describe('CORS with CORS_ORIGINS set', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ CORS_ORIGINS: `${ALLOWED}, http://localhost:5173` });
  });
  afterAll(() => app.close());

  it.each([
    ['POST', '/graphql', 'content-type,authorization'],
    ['POST', '/graphql/stream', 'content-type,authorization,x-graphql-event-stream-token'],
    ['POST', '/api/orders', 'content-type,authorization,idempotency-key'],
    ['GET', '/stream/trades', 'last-event-id'],
    ['GET', '/market-data/v1/events', 'x-api-key,if-none-match'],
    ['GET', '/openapi.json', 'x-request-id'],
    ['POST', '/auth/setup', 'x-admin-token,apollo-require-preflight'],
  ])(
    'answers the preflight of %s %s from an allowed origin with 204 and the CORS headers',
    async (method, path, asked) => {
      const res = await preflight(app.url + path, ALLOWED, method, asked);
      expect(res.status).toBe(204);
      const h = corsHeaders(res);
      expect(h['access-control-allow-origin']).toBe(ALLOWED);
      expect(h['access-control-allow-credentials']).toBe('true');
      expect(list(h['access-control-allow-methods'])).toContain(method.toLowerCase());
      for (const name of asked.split(',')) expect(list(h['access-control-allow-headers'])).toContain(name);
      expect(h['access-control-max-age']).toBe('600');
      expect(list(res.headers.get('vary'))).toContain('origin');
    },
  );

  it('allows every credential and protocol header the API reads', async () => {
    const res = await preflight(`${app.url}/graphql`, 'http://localhost:5173', 'POST', 'content-type');
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(list(res.headers.get('access-control-allow-headers'))).toEqual(
      expect.arrayContaining([
        'authorization',
        'content-type',
        'idempotency-key',
        'last-event-id',
        'x-api-key',
        'x-admin-token',
        'x-rewards-admin-token',
        'x-feed-ingest-token',
        'apollo-require-preflight',
        'x-apollo-operation-name',
      ]),
    );
    expect(list(res.headers.get('access-control-allow-headers'))).toHaveLength(CORS_ALLOWED_HEADERS.length);
  });

  it.each([OTHER, 'https://app.example.com.evil.example.net', 'http://app.example.com', 'null'])(
    'gives a preflight from %s no CORS header',
    async (origin) => {
      const res = await preflight(`${app.url}/graphql`, origin, 'POST', 'content-type,authorization');
      expect(corsHeaders(res)).toEqual({});
      expect(list(res.headers.get('vary'))).toContain('origin');
    },
  );

  it('answers a credentialed simple request with the origin and the readable headers', async () => {
    const res = await fetch(`${app.url}/api/portfolio`, {
      headers: { origin: ALLOWED, ...(await app.bearer('cors-user')) },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(list(res.headers.get('access-control-expose-headers'))).toEqual(
      CORS_EXPOSED_HEADERS.map((h) => h.toLowerCase()),
    );
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('exposes every rate-limit header the market-data surface sends', async () => {
    const res = await fetch(`${app.url}/market-data/v1/events`, { headers: { origin: ALLOWED } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    const exposed = list(res.headers.get('access-control-expose-headers'));
    for (const name of [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'ratelimit-policy',
      'ratelimit',
    ]) {
      expect(exposed).toContain(name);
    }
    for (const name of ['etag', 'retry-after', 'x-request-id', 'deprecation', 'link']) expect(exposed).toContain(name);
  });

  it('leaves a request from another origin without CORS headers (the browser withholds the answer)', async () => {
    const res = await fetch(`${app.url}/api/events`, { headers: { origin: OTHER } });
    expect(res.status).toBe(200);
    expect(corsHeaders(res)).toEqual({});
  });

  it("keeps Apollo's CSRF prevention: a simple request from an allowed origin is still refused", async () => {
    const query = encodeURIComponent('{ __typename }');
    const simpleGet = await fetch(`${app.url}/graphql?query=${query}`, { headers: { origin: ALLOWED } });
    expect(simpleGet.status).toBe(400);
    expect(await simpleGet.text()).toMatch(/CSRF/i);
    const simplePost = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { origin: ALLOWED, 'content-type': 'text/plain' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    // A simple POST's body is form or text: refused (415) before Apollo sees it.
    expect(simplePost.status).toBe(415);

    // What a browser sends after the preflight passes.
    const preflighted = await fetch(`${app.url}/graphql?query=${query}`, {
      headers: { origin: ALLOWED, 'apollo-require-preflight': 'true' },
    });
    expect(preflighted.status).toBe(200);
    expect(await preflighted.json()).toEqual({ data: { __typename: 'Query' } });
    expect(preflighted.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });
});

describe('CORS by default (CORS_ORIGINS unset)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('answers no origin with CORS headers: same-origin only', async () => {
    const res = await preflight(`${app.url}/graphql`, ALLOWED, 'POST', 'content-type');
    expect(corsHeaders(res)).toEqual({});
    const get = await fetch(`${app.url}/api/events`, { headers: { origin: ALLOWED } });
    expect(corsHeaders(get)).toEqual({});
  });
});

describe('CORS_ORIGINS validation', () => {
  it.each([
    'https://app.example.com/',
    'https://app.example.com/path',
    '*',
    'app.example.com',
    'ftp://files.example.com',
  ])('refuses %s, naming the variable', (value) => {
    expect(() => loadConfig({ NODE_ENV: 'test', CORS_ORIGINS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'test', CORS_ORIGINS: value })).toThrow(/CORS_ORIGINS/);
  });

  it('takes a comma-separated list of origins', () => {
    const config = loadConfig({ NODE_ENV: 'test', CORS_ORIGINS: ' https://a.example.com ,http://localhost:5173,' });
    expect(config.browser.corsOrigins).toEqual(['https://a.example.com', 'http://localhost:5173']);
    expect(loadConfig({ NODE_ENV: 'test' }).browser.corsOrigins).toEqual([]);
  });
});
