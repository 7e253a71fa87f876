/**
 * The body gate (src/http/body-gate.ts) on every kind of route: JSON nested
 * deeper than JSON_MAX_DEPTH is a 400 naming the setting (bodies, and GraphQL
 * variables in a query string), a body over HTTP_BODY_LIMIT_BYTES is a 413
 * before it is read (declared) or as soon as it passes the limit (chunked), a
 * body that is not UTF-8 JSON is a 415; and what the documents describe still
 * works (JSON with a charset, empty POSTs, GraphQL GETs, graphql-sse's client,
 * the signed payment webhook).
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { gzipSync } from 'node:zlib';
import { createClient } from 'graphql-sse';
import { TRADES_TOPIC, type TradeEvent } from '../../../src/modules/trades';
import { http, startTestApp, type TestApp } from '../../support/app';
import { postPaymentEvent } from '../../support/payments';
import { waitFor } from '../../support/wait';

const SECRET = 'whsec_body_gate_test';
const MIB = 1024 * 1024;

/** Defaults (1 MiB, 64 levels). */
let app: TestApp;
/** A small body limit and the deepest nesting the setting allows. */
let tight: TestApp;
beforeAll(async () => {
  app = await startTestApp({ PAYMENT_WEBHOOK_SECRET: SECRET });
  tight = await startTestApp({ HTTP_BODY_LIMIT_BYTES: '65536', JSON_MAX_DEPTH: '512' });
});
afterAll(async () => {
  await tight?.close();
  await app?.close();
});

/** JSON text of an object nested `levels` deep (`{"a":{"a":…1}}`: `levels` objects). */
const nestedObjects = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
/** JSON text of arrays nested `levels` deep. */
const nestedArrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
/** GraphQL variables nested 5,000 deep for a query string (brackets stay unencoded there, so it fits a URL). */
const deepQueryVariables = `{"v":${'['.repeat(5000)}${']'.repeat(5000)}}`;
/** A GraphQL POST body whose variables hold `value` (the body itself is one level, `variables` another). */
const graphqlBody = (value: string, query = '{ __typename }') =>
  `{"query":${JSON.stringify(query)},"variables":{"v":${value}}}`;

const json = { 'content-type': 'application/json' };
const deepMessage = (max: number) => `body: nested deeper than ${max} levels (JSON_MAX_DEPTH)`;
const tooLarge = (limit: number) => ({
  error: 'payload_too_large',
  message: `body: larger than ${limit} bytes (HTTP_BODY_LIMIT_BYTES)`,
});

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: unknown;
  /** Body bytes the client had written when the answer came. */
  sent: number;
}

/**
 * One raw request (node:http, so a body can be declared and not sent, or
 * streamed): `whole` sends `body` with its length; `headers` declares
 * `declared` bytes and sends none; `stream` writes `chunk` repeatedly, chunked,
 * honouring backpressure, up to `total` bytes or until the answer comes.
 */
function raw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  send:
    | { mode: 'whole'; body: Buffer | string }
    | { mode: 'headers'; declared: number }
    | { mode: 'stream'; chunk: Buffer; total: number },
): Promise<RawAnswer> {
  const url = new URL(base);
  const head = { ...headers };
  if (send.mode === 'whole') head['content-length'] = String(Buffer.byteLength(send.body));
  if (send.mode === 'headers') head['content-length'] = String(send.declared);
  // Keep-alive, as browsers and fetch: a client that asks to close gets its connection closed as soon
  // as the answer is written, which can reset it under a body still being sent.
  const agent = new Agent({ keepAlive: true });
  return new Promise<RawAnswer>((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers: head, agent }, (res) => {
      answered = true;
      const at = sent;
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body, sent: at });
      });
      res.on('error', reject);
    });
    // A refused body's rest is dropped for a while, then its connection closed: later writes may fail.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    if (send.mode === 'whole') {
      sent = Buffer.byteLength(send.body);
      req.end(send.body);
    } else if (send.mode === 'headers') {
      req.flushHeaders();
    } else {
      const pump = async () => {
        while (!answered && !req.destroyed && sent < send.total) {
          sent += send.chunk.length;
          if (!req.write(send.chunk)) {
            await new Promise<void>((r) => {
              const go = () => {
                req.off('drain', go);
                req.off('close', go);
                r();
              };
              req.on('drain', go);
              req.on('close', go);
            });
          }
        }
        if (!answered && !req.destroyed) req.end();
      };
      void pump();
    }
  }).finally(() => agent.destroy());
}

describe('JSON nesting (JSON_MAX_DEPTH, default 64)', () => {
  it('POST /graphql with variables nested 5,000 deep is a 400 naming the limit, not a 500', async () => {
    const r = await http(`${app.url}/graphql`, {
      method: 'POST',
      headers: json,
      body: graphqlBody(nestedObjects(5000)),
    });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { error: 'bad_request', message: deepMessage(64) },
    });
  });

  it('the same on a small /graphql POST, which is read before Express (repeat answers)', async () => {
    const body = graphqlBody(nestedArrays(5000));
    expect(Buffer.byteLength(body)).toBeLessThan(16 * 1024);
    const r = await http(`${app.url}/graphql`, { method: 'POST', headers: json, body });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { error: 'bad_request', message: deepMessage(64) },
    });
  });

  it('GET /graphql with variables nested 5,000 deep in the query string: 400 naming `variables`', async () => {
    const query = encodeURIComponent('{ __typename }');
    const r = await http(`${app.url}/graphql?query=${query}&variables=${deepQueryVariables}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { error: 'bad_request', message: 'variables: nested deeper than 64 levels (JSON_MAX_DEPTH)' },
    });
  });

  it('POST /graphql/stream with deep variables: 400, and the same in a GET query string', async () => {
    const post = await http(`${app.url}/graphql/stream`, {
      method: 'POST',
      headers: { ...json, accept: 'text/event-stream' },
      body: graphqlBody(nestedObjects(5000), 'subscription { trades { id } }'),
    });
    expect({ status: post.status, body: post.body }).toEqual({
      status: 400,
      body: { error: 'bad_request', message: deepMessage(64) },
    });
    const query = encodeURIComponent('subscription { trades { id } }');
    const get = await http(`${app.url}/graphql/stream?query=${query}&variables=${deepQueryVariables}`, {
      headers: { accept: 'text/event-stream' },
    });
    expect({ status: get.status, body: get.body }).toEqual({
      status: 400,
      body: { error: 'bad_request', message: 'variables: nested deeper than 64 levels (JSON_MAX_DEPTH)' },
    });
  });

  it('PUT /api/preferences with a body nested 5,000 deep: 400 with a credential, 401 without one', async () => {
    const body = `{"display.currency":${nestedObjects(5000)}}`;
    const authed = await http(`${app.url}/api/preferences`, {
      method: 'PUT',
      headers: { ...json, ...(await app.bearer('deep-user')) },
      body,
    });
    expect({ status: authed.status, body: authed.body }).toEqual({
      status: 400,
      body: { error: 'bad_request', message: deepMessage(64) },
    });
    const anonymous = await http(`${app.url}/api/preferences`, { method: 'PUT', headers: json, body });
    expect(anonymous.status).toBe(401);
  });

  it('is exact at the limit: a body 64 levels deep runs, 65 is refused', async () => {
    // The body is level 1 and `variables` level 2: a value of 62 levels makes the body 64 deep.
    const ok = await http(`${app.url}/graphql`, {
      method: 'POST',
      headers: json,
      body: graphqlBody(nestedArrays(62)),
    });
    expect({ status: ok.status, body: ok.body }).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
    const over = await http(`${app.url}/graphql`, {
      method: 'POST',
      headers: json,
      body: graphqlBody(nestedArrays(63)),
    });
    expect(over.status).toBe(400);
  });

  it('brackets inside strings are not nesting', async () => {
    const value = JSON.stringify({ text: '['.repeat(500) + '{'.repeat(500) + '\\"[[[' });
    const r = await http(`${app.url}/graphql`, { method: 'POST', headers: json, body: graphqlBody(value) });
    expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
  });

  it('at the deepest setting (512), what passes is walked safely everywhere, and 513 is refused', async () => {
    const within = nestedObjects(510);
    const gql = await http(`${tight.url}/graphql`, { method: 'POST', headers: json, body: graphqlBody(within) });
    expect({ status: gql.status, body: gql.body }).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
    const mutation = 'mutation($v: JSONObject!) { updatePreferences(values: $v) }';
    const prefs = await http(`${tight.url}/graphql`, {
      method: 'POST',
      headers: { ...json, ...(await tight.bearer('deep-user')) },
      body: graphqlBody(`{"display.currency":${nestedObjects(508)}}`, mutation),
    });
    expect(prefs.status).toBeLessThan(500);
    const rest = await http(`${tight.url}/api/preferences`, {
      method: 'PUT',
      headers: { ...json, ...(await tight.bearer('deep-user')) },
      body: `{"display.currency":${nestedObjects(511)}}`,
    });
    expect(rest.status).toBe(400);
    expect((rest.body as { message: string }).message).not.toMatch(/JSON_MAX_DEPTH/);
    const over = await http(`${tight.url}/api/preferences`, {
      method: 'PUT',
      headers: { ...json, ...(await tight.bearer('deep-user')) },
      body: `{"display.currency":${nestedObjects(512)}}`,
    });
    expect(over.body).toEqual({ error: 'bad_request', message: deepMessage(512) });
  });
});

describe('body size (HTTP_BODY_LIMIT_BYTES, default 1 MiB)', () => {
  const oversize = Buffer.alloc(MIB + 1, 0x20);
  it.each([
    ['POST', '/graphql', {}],
    ['POST', '/graphql/stream', { accept: 'text/event-stream' }],
    ['PUT', '/api/preferences', {}],
    ['POST', '/webhooks/payments', { 'payment-signature': 't=1,v1=00' }],
    ['POST', '/api/wallets/import', {}],
  ])('%s %s with a body over the limit: 413, before any credential check', async (method, path, headers) => {
    const r = await raw(app.url, method, path, { ...json, ...headers }, { mode: 'whole', body: oversize });
    expect({ status: r.status, body: r.body }).toEqual({ status: 413, body: tooLarge(MIB) });
  });

  it.each([
    ['POST', '/graphql', {}],
    ['POST', '/graphql/stream', { accept: 'text/event-stream' }],
    ['PUT', '/api/preferences', {}],
  ])('%s %s declaring 64 MiB is answered 413 before any of it is sent', async (method, path, headers) => {
    const r = await raw(app.url, method, path, { ...json, ...headers }, { mode: 'headers', declared: 64 * MIB });
    expect({ status: r.status, body: r.body, sent: r.sent }).toEqual({ status: 413, body: tooLarge(MIB), sent: 0 });
  });

  it.each([
    ['POST', '/graphql', {}],
    ['POST', '/graphql/stream', { accept: 'text/event-stream' }],
    ['PUT', '/api/preferences', {}],
    ['POST', '/api/wallets/import', {}],
  ])('%s %s with a chunked body is cut at the limit: 413 long before the client is done', async (method, path, h) => {
    const total = 64 * MIB;
    const headers = { ...json, ...h, ...(await tight.bearer('chunked-user')) };
    const r = await raw(tight.url, method, path, headers, {
      mode: 'stream',
      chunk: Buffer.alloc(16 * 1024, 0x20),
      total,
    });
    expect({ status: r.status, body: r.body }).toEqual({ status: 413, body: tooLarge(65536) });
    expect(r.sent).toBeLessThan(total);
  });

  it('a client that sends its whole oversize body reads the 413 and keeps its connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(tight.url);
    const send = (method: string, path: string, body?: Buffer) =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers: json, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
        });
        req.on('error', reject);
        if (body) {
          // Chunked, in pieces, all of it: the server answers at the limit and drops the rest.
          for (let at = 0; at < body.length; at += 16 * 1024) req.write(body.subarray(at, at + 16 * 1024));
        }
        req.end();
      });
    try {
      const refused = await send('POST', '/graphql', Buffer.alloc(2 * MIB, 0x20));
      expect(refused.status).toBe(413);
      const next = await send('GET', '/health');
      expect(next).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it('a gzip body is limited by what it decodes to', async () => {
    const body = gzipSync(Buffer.from(`{"pad":"${'x'.repeat(70_000)}"}`));
    expect(body.length).toBeLessThan(65536);
    const r = await raw(
      tight.url,
      'POST',
      '/graphql',
      { ...json, 'content-encoding': 'gzip' },
      { mode: 'whole', body },
    );
    expect({ status: r.status, body: r.body }).toEqual({ status: 413, body: tooLarge(65536) });
  });
});

describe('content types (415 for anything but UTF-8 JSON)', () => {
  const unsupported = (message: string) => ({ error: 'unsupported_media_type', message: `body: ${message}` });

  it('POST /graphql/stream with 64 MiB of application/json-patch+json: 415 without reading it', async () => {
    const total = 64 * MIB;
    const r = await raw(
      app.url,
      'POST',
      '/graphql/stream',
      { 'content-type': 'application/json-patch+json', accept: 'text/event-stream' },
      { mode: 'stream', chunk: Buffer.alloc(64 * 1024, 0x20), total },
    );
    expect({ status: r.status, body: r.body }).toEqual({
      status: 415,
      body: unsupported('Content-Type must be application/json (got application/json-patch+json)'),
    });
    expect(r.sent).toBeLessThan(total);
  });

  it.each([
    ['text/plain', 'Content-Type must be application/json (got text/plain)'],
    [
      'application/x-www-form-urlencoded',
      'Content-Type must be application/json (got application/x-www-form-urlencoded)',
    ],
    ['application/merge-patch+json', 'Content-Type must be application/json (got application/merge-patch+json)'],
    ['application/json; charset=utf-16', 'charset utf-16 is not supported: send UTF-8'],
  ])(
    '%s: 415 on /graphql, on /graphql/stream and on a REST route (after its credential check)',
    async (type, message) => {
      const body = JSON.stringify({ query: '{ __typename }' });
      const headers = { 'content-type': type };
      const gql = await http(`${app.url}/graphql`, { method: 'POST', headers, body });
      expect({ status: gql.status, body: gql.body }).toEqual({ status: 415, body: unsupported(message) });
      const stream = await http(`${app.url}/graphql/stream`, {
        method: 'POST',
        headers: { ...headers, accept: 'text/event-stream' },
        body,
      });
      expect({ status: stream.status, body: stream.body }).toEqual({ status: 415, body: unsupported(message) });
      const prefs = { method: 'PUT', body: '{"display.currency":"EUR"}' };
      const authed = await http(`${app.url}/api/preferences`, {
        ...prefs,
        headers: { ...headers, ...(await app.bearer('type-user')) },
      });
      expect({ status: authed.status, body: authed.body }).toEqual({ status: 415, body: unsupported(message) });
      const anonymous = await http(`${app.url}/api/preferences`, { ...prefs, headers });
      expect(anonymous.status).toBe(401);
    },
  );

  it('a body without a Content-Type, or in an unknown coding, is a 415 too', async () => {
    const none = await raw(app.url, 'POST', '/graphql', {}, { mode: 'whole', body: '{"query":"{ __typename }"}' });
    expect({ status: none.status, body: none.body }).toEqual({
      status: 415,
      body: unsupported('Content-Type must be application/json (got none)'),
    });
    const coded = await raw(
      app.url,
      'POST',
      '/graphql',
      { ...json, 'content-encoding': 'compress' },
      { mode: 'whole', body: '{"query":"{ __typename }"}' },
    );
    expect({ status: coded.status, body: coded.body }).toEqual({
      status: 415,
      body: unsupported('Content-Encoding compress is not supported (gzip, deflate, br or none)'),
    });
  });
});

describe('what the documents describe still works', () => {
  it('JSON with a charset, in any case, and a gzip-encoded JSON body', async () => {
    const auth = await app.bearer('documented-user');
    const put = await http(`${app.url}/api/preferences`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json; charset=utf-8', ...auth },
      body: JSON.stringify({ 'display.currency': 'GBP' }),
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ 'display.currency': 'GBP' });
    const upper = await http(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'Application/JSON;Charset="UTF-8"' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(upper.body).toEqual({ data: { __typename: 'Query' } });
    const gzipped = await raw(
      app.url,
      'POST',
      '/graphql',
      { ...json, 'content-encoding': 'gzip' },
      { mode: 'whole', body: gzipSync(JSON.stringify({ query: '{ __typename }' })) },
    );
    expect({ status: gzipped.status, body: gzipped.body }).toEqual({
      status: 200,
      body: { data: { __typename: 'Query' } },
    });
  });

  it('an empty-bodied POST without a Content-Type', async () => {
    const r = await http(`${app.url}/auth/setup`, { method: 'POST', headers: await app.bearer('documented-user') });
    expect(r.status).toBe(200);
  });

  it('a GraphQL GET', async () => {
    const query = encodeURIComponent('query($skip: Boolean!) { __typename @skip(if: $skip) }');
    const variables = encodeURIComponent('{"skip":false}');
    const r = await http(`${app.url}/graphql?query=${query}&variables=${variables}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
  });

  it('the signed payment webhook', async () => {
    const body = JSON.stringify({ id: 'evt_body_gate', type: 'something.else', data: {} }, null, 2);
    const r = await postPaymentEvent(app.url, body, { secret: SECRET, contentType: 'application/json; charset=utf-8' });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 200,
      body: { received: true, eventId: 'evt_body_gate', duplicate: false, outcome: 'ignored' },
    });
  });

  it.each([false, true])("graphql-sse's own client (singleConnection: %s) subscribes and receives", async (single) => {
    const client = createClient({ url: `${app.url}/graphql/stream`, singleConnection: single, retryAttempts: 0 });
    try {
      let received: string | undefined;
      let failed: unknown;
      client.subscribe<{ trades: { id: string } }>(
        { query: 'subscription($venue: Venue) { trades(venue: $venue) { id } }', variables: { venue: 'venue_b' } },
        {
          next: (v) => (received ??= v.data?.trades.id),
          error: (err: unknown) => (failed = err),
          complete: () => undefined,
        },
      );
      // Published until the subscription is in place and delivers.
      for (let i = 0; received === undefined && failed === undefined && i < 400; i += 1) {
        await app.services.infra.pubsub.publishMany(TRADES_TOPIC, [
          {
            id: `gate:${single}:${i}`,
            venue: 'venue_b',
            marketId: 'm',
            eventId: null,
            traderId: null,
            side: 'buy',
            outcome: 'yes',
            price: 0.5,
            size: 1,
            filledAt: new Date().toISOString(),
          } satisfies TradeEvent,
        ]);
        await waitFor(() => received !== undefined || failed !== undefined, 'an event', 25).catch(() => undefined);
      }
      expect(failed).toBeUndefined();
      expect(received).toMatch(new RegExp(`^gate:${single}:`));
    } finally {
      client.dispose();
    }
  });
});
