import net from 'node:net';
import { loadConfig, ConfigError } from '../../../src/config';
import { http, startTestApp, type HeaderMap, type TestApp } from '../../support/app';
import { openSse } from '../../support/sse';
import { waitFor } from '../../support/wait';

// `behind`: one proxy hop trusted, a metrics token, short server timeouts. `direct`: the defaults.
const METRICS_TOKEN = 'metrics-token-for-tests-0123456789abcdef';
let behind: TestApp;
let direct: TestApp;
beforeAll(async () => {
  behind = await startTestApp(
    {
      TRUST_PROXY: '1',
      DISCOVER_RATE_LIMIT: '1',
      METRICS_TOKEN,
      HTTP_HEADERS_TIMEOUT_MS: '1000',
      HTTP_REQUEST_TIMEOUT_MS: '1000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '5000',
    },
    { heartbeatMs: 200 },
  );
  direct = await startTestApp({ DISCOVER_RATE_LIMIT: '1' });
});
afterAll(async () => {
  await behind?.close();
  await direct?.close();
});

const discover = (app: TestApp, forwardedFor: string) =>
  http(`${app.url}/api/events/discover?pageSize=1`, { headers: { 'x-forwarded-for': forwardedFor } });

describe('TRUST_PROXY', () => {
  it('with one trusted hop, two X-Forwarded-For clients get separate anonymous rate-limit buckets', async () => {
    expect((await discover(behind, '198.51.100.1')).status).toBe(200);
    expect((await discover(behind, '198.51.100.2')).status).toBe(200);
    const again = await discover(behind, '198.51.100.1');
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ error: 'rate_limited' });
    expect(again.headers.get('retry-after')).toMatch(/^\d+$/);
    // Only the last hop is believed: an address the client prepends is not its identity.
    expect((await discover(behind, '203.0.113.9, 198.51.100.3')).status).toBe(200);
    expect((await discover(behind, '203.0.113.10, 198.51.100.3')).status).toBe(429);
  });

  it('off by default: X-Forwarded-For is ignored, every caller shares the socket address bucket', async () => {
    expect((await discover(direct, '198.51.100.1')).status).toBe(200);
    expect((await discover(direct, '198.51.100.2')).status).toBe(429);
  });

  it('is validated: hop counts, addresses, CIDRs and names; anything else stops the start', () => {
    const trust = (v: string) => loadConfig({ NODE_ENV: 'test', TRUST_PROXY: v }).http.trustProxy;
    expect(trust('')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 192.168.1.1,loopback, ::1')).toEqual(['10.0.0.0/8', '192.168.1.1', 'loopback', '::1']);
    expect(() => trust('10.0.0.0/33')).toThrow(ConfigError);
    expect(() => trust('proxy.example.com')).toThrow(/TRUST_PROXY/);
  });
});

describe('security headers', () => {
  it('X-Content-Type-Options: nosniff on every answer, errors included', async () => {
    for (const path of ['/health', '/api/events/discover?pageSize=1', '/no-such-route', '/openapi.json']) {
      const r = await http(`${direct.url}${path}`);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const gql = await http(`${direct.url}/graphql`, { method: 'POST', json: { query: '{ __typename }' } });
    expect(gql.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('Strict-Transport-Security only when TLS ended at a trusted proxy (HSTS=auto)', async () => {
    const overTls = await http(`${behind.url}/health`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(overTls.headers.get('strict-transport-security')).toBe('max-age=31536000');
    expect((await http(`${behind.url}/health`)).headers.get('strict-transport-security')).toBeNull();
    // Without trust proxy the forwarded protocol is not believed.
    const spoofed = await http(`${direct.url}/health`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(spoofed.headers.get('strict-transport-security')).toBeNull();
  });

  it('HSTS is validated: auto, on or off', () => {
    expect(loadConfig({ NODE_ENV: 'test', HSTS: 'on' }).http.hsts).toBe('on');
    expect(() => loadConfig({ NODE_ENV: 'test', HSTS: 'sometimes' })).toThrow(/HSTS/);
  });
});

describe('/metrics', () => {
  it('is open without METRICS_TOKEN', async () => {
    const r = await http(`${direct.url}/metrics`);
    expect(r.status).toBe(200);
    expect(r.text).toContain('sse_streams_refused_total');
  });

  it('needs the bearer token when METRICS_TOKEN is set: 401 with the error body otherwise', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: METRICS_TOKEN }] as HeaderMap[]) {
      const r = await http(`${behind.url}/metrics`, { headers });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
    }
    const ok = await http(`${behind.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('http_requests_total');
  });
});

describe('server timeouts', () => {
  it('are set from the configuration', () => {
    const { server } = direct.running;
    expect(server.headersTimeout).toBe(20_000);
    expect(server.requestTimeout).toBe(60_000);
    expect(server.keepAliveTimeout).toBe(65_000);
    expect(behind.running.server.headersTimeout).toBe(1000);
    expect(() =>
      loadConfig({ NODE_ENV: 'test', HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '2000' }),
    ).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
  });

  it('a client that never finishes its headers is cut off; an open stream outlives the request timeout', async () => {
    const stream = await openSse(`${behind.url}/stream/trades`);
    expect(stream.status).toBe(200);
    const { port } = new URL(behind.url);
    const slow = net.connect(Number(port), '127.0.0.1');
    let answer = '';
    slow.on('data', (d: Buffer) => (answer += d.toString()));
    slow.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => slow.once('close', () => resolve()));
    slow.write('GET /health HTTP/1.1\r\nHost: localhost\r\n');
    await closed;
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
    // The stream opened before that client has been open longer than the request timeout, and
    // still delivers (a heartbeat comes after the cut).
    const seen = stream.comments.length;
    await waitFor(() => stream.comments.length > seen, 'a heartbeat after the cut', 10_000);
    expect(stream.comments.at(-1)).toBe('heartbeat');
    stream.close();
  });
});
