import fc from 'fast-check';
import { ROUTES } from '../../rest-adapter/routes';
import type { AnyRouteDef } from '../../rest-adapter/route.types';
import type { TestApp } from '../support/app';
import { problemOf, send } from './fuzz-send';
import {
  bodyCoding,
  bodyContentType,
  bodyHeaders,
  encodeBody,
  graphqlFuzzRequest,
  nestingBomb,
  oversizeBody,
} from './body-fuzz';

export { closeFuzzConnections, problemOf, send, type FuzzOutcome } from './fuzz-send';

/**
 * Property-based fuzzing of the REST route table and the GraphQL endpoints:
 * every documented operation gets malformed path parameters, query values,
 * headers and JSON bodies, nesting bombs and bodies over the size limit under
 * many content types and codings (declared or chunked), with and without each
 * kind of credential; /graphql and /graphql/stream get the same bodies and
 * variables (test/fuzz/body-fuzz.ts). Each case is one raw HTTP request (sent
 * with node:http, so malformed percent-escapes and bodies that are not UTF-8
 * reach the server as they are; test/fuzz/fuzz-send.ts). The property: no
 * 5xx, every 4xx of a REST route carries the documented error body, and a
 * GraphQL endpoint's JSON 4xx is GraphQL's `{ errors }` or that error body.
 */

/** The credentials a case may carry: what the app under test accepts. */
export interface FuzzCredentials {
  bearer: string;
  walletBearer: string;
  apiKey: string;
  adminToken: string;
  rewardsAdminToken: string;
  feedIngestToken: string;
  indexerSecret: string;
}

/** One generated request. */
export interface FuzzCase {
  /** A route of the table, or a GraphQL endpoint (whose own 4xx bodies are GraphQL's). */
  kind: 'rest' | 'graphql';
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Sent with `Transfer-Encoding: chunked` instead of a Content-Length. */
  chunked?: boolean;
}

/** Percent-encodes text; text that is not well-formed Unicode becomes invalid UTF-8 bytes instead. */
function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
}

/** Already-encoded URL tokens that are malformed in some way. */
const RAW_URL_TOKENS = [
  '%00',
  'a%00b',
  '%00%00%00',
  '%ED%A0%80', // a lone surrogate encoded in UTF-8 (invalid)
  '%ED%BF%BF',
  '%C0%80', // overlong NUL
  '%FF%FE',
  '%E0%A4%A', // truncated
  '%ZZ',
  '%',
  '%25',
  '%2F..%2F..%2Fetc%2Fpasswd',
  '..',
  '%5Cu0000',
  '-1',
  '-999999999999999999999',
  '99999999999999999999999',
  '1e308',
  '-1e308',
  'NaN',
  'Infinity',
  '0x10',
  '1.5',
  '%20',
  '%09',
  'true',
  'null',
  '%5B%5D',
  '%7B%7D',
  '%27%20OR%201%3D1%20--',
  '%25%5F%5C',
  'venue_a',
  'venue_b',
  '0x' + 'ab'.repeat(20),
  '00000000-0000-0000-0000-000000000000',
];

/** A path or query value, already encoded; huge ones stay under the server's header size limit. */
const urlValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...RAW_URL_TOKENS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40, unit: 'binary' }).map(encode) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => encode(`${s}\u0000${s}`)) },
  { weight: 1, arbitrary: fc.integer({ min: 500, max: 4000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer().map(String) },
);

/** Body values that break a field's rules: NUL, lone surrogates, huge text, wrong types, extreme numbers, nesting. */
const badScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfff',
    '',
    ' ',
    '%',
    '_',
    '\\',
    -1,
    0,
    -0,
    1.5,
    1e308,
    -1e308,
    2 ** 53 + 1,
    -(2 ** 63),
    true,
    false,
    null,
    [],
    {},
    ['a'],
    [1, 2, 3],
    { $gt: '' },
    'venue_a',
    'buy',
    '0x' + 'ab'.repeat(20),
  ),
  fc.string({ maxLength: 30, unit: 'binary' }),
  fc.integer({ min: 1000, max: 200_000 }).map((n) => 'y'.repeat(n)),
  fc.double(),
  fc.integer(),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 5 }),
  fc.integer({ min: 20, max: 2000 }).map((depth) => nested(depth)),
);

/** An object nested `depth` levels. */
function nested(depth: number): unknown {
  let v: unknown = 'deep';
  for (let i = 0; i < depth; i += 1) v = { a: v };
  return v;
}

/** Raw body texts (bytes) that are not a JSON object, or not JSON, or not UTF-8. */
const RAW_BODIES: Buffer[] = [
  '',
  '{',
  '}',
  'null',
  '[]',
  '"text"',
  '123',
  '{"a":1,}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"\\u0000":1}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '['.repeat(5000) + ']'.repeat(5000),
  '{"a":'.repeat(3000) + '1' + '}'.repeat(3000),
].map((s) => Buffer.from(s, 'utf8'));
RAW_BODIES.push(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])); // {"a":"<ff fe>"}
RAW_BODIES.push(Buffer.from([0xc0, 0x80]));
RAW_BODIES.push(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])); // BOM + {}

/** Header values the HTTP client can send (latin1, no control characters) that are malformed for the app. */
const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '*',
    'null',
    '-1',
    'Bearer',
    'Bearer ',
    'Bearer x.y.z',
    'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
    'Basic Zm9vOmJhcg==',
    '\u00ff\u00fe',
    'é',
    'W/"x"',
    '"',
    'md_live_' + 'a'.repeat(40),
  ),
  fc.string({ maxLength: 30 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
  fc.integer({ min: 256, max: 4000 }).map((n) => 'h'.repeat(n)),
);

const FUZZ_HEADERS = [
  'authorization',
  'x-api-key',
  'x-admin-token',
  'x-rewards-admin-token',
  'idempotency-key',
  'last-event-id',
  'if-none-match',
  'accept',
  'x-forwarded-for',
  'x-payment-signature',
  'x-indexer-secret',
  'x-feed-ingest-token',
];

type Credential = 'anonymous' | 'bearer' | 'wallet' | 'api-key' | 'api-key-bearer' | 'admin' | 'all-tokens';
const CREDENTIALS: Credential[] = ['anonymous', 'bearer', 'wallet', 'api-key', 'api-key-bearer', 'admin', 'all-tokens'];

function credentialHeaders(c: Credential, creds: FuzzCredentials): Record<string, string> {
  switch (c) {
    case 'anonymous':
      return {};
    case 'bearer':
      return { authorization: `Bearer ${creds.bearer}` };
    case 'wallet':
      return { authorization: `Bearer ${creds.walletBearer}` };
    case 'api-key':
      return { 'x-api-key': creds.apiKey };
    case 'api-key-bearer':
      return { authorization: `Bearer ${creds.apiKey}` };
    case 'admin':
      return { authorization: `Bearer ${creds.bearer}`, 'x-admin-token': creds.adminToken };
    case 'all-tokens':
      return {
        authorization: `Bearer ${creds.bearer}`,
        'x-admin-token': creds.adminToken,
        'x-rewards-admin-token': creds.rewardsAdminToken,
        'x-feed-ingest-token': creds.feedIngestToken,
        'x-indexer-secret': creds.indexerSecret,
      };
  }
}

function shapeKeys(route: AnyRouteDef, where: 'path' | 'query' | 'body'): string[] {
  return Object.keys(route.params?.[where]?.shape ?? {});
}

function pathParams(route: AnyRouteDef): string[] {
  return [...route.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]);
}

/** The routes fuzzed: the whole table (each is a documented operation, or listed as routed but undocumented). */
export function fuzzRoutes(): readonly AnyRouteDef[] {
  return ROUTES;
}

/** A generator of one malformed request to one of the routes. */
export function fuzzCase(routes: readonly AnyRouteDef[], creds: FuzzCredentials): fc.Arbitrary<FuzzCase> {
  return fc.constantFrom(...routes).chain((route) => {
    const params = pathParams(route);
    const queryKeys = shapeKeys(route, 'query');
    const bodyKeys = shapeKeys(route, 'body');
    const pathArb = fc.tuple(...params.map(() => urlValue)).map((values) => {
      let i = 0;
      return route.path.replace(/\{[A-Za-z0-9_]+\}/g, () => values[i++]);
    });
    const queryArb = fc
      .array(
        fc.tuple(
          fc.oneof(
            { weight: 5, arbitrary: queryKeys.length > 0 ? fc.constantFrom(...queryKeys) : fc.constant('q') },
            { weight: 1, arbitrary: urlValue },
          ),
          urlValue,
        ),
        { maxLength: 4 },
      )
      .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
    const objectBody = fc
      .dictionary(
        fc.oneof(
          { weight: 5, arbitrary: bodyKeys.length > 0 ? fc.constantFrom(...bodyKeys) : fc.constant('a') },
          { weight: 1, arbitrary: fc.string({ maxLength: 8, unit: 'binary' }) },
        ),
        badScalar,
        { maxKeys: 5 },
      )
      .map((o) => Buffer.from(JSON.stringify(o), 'utf8'));
    const bombBody = fc
      .tuple(bodyKeys.length > 0 ? fc.constantFrom(...bodyKeys) : fc.constant('a'), nestingBomb, fc.boolean())
      .map(([key, bomb, top]) => Buffer.from(top ? bomb : `{${JSON.stringify(key)}:${bomb}}`, 'utf8'));
    const bodyArb: fc.Arbitrary<Buffer | undefined> = fc.oneof(
      { weight: 2, arbitrary: fc.constant(undefined) },
      { weight: 12, arbitrary: objectBody },
      { weight: 4, arbitrary: fc.constantFrom(...RAW_BODIES) },
      { weight: 2, arbitrary: badScalar.map((v) => Buffer.from(JSON.stringify(v) ?? 'null', 'utf8')) },
      { weight: 3, arbitrary: bombBody },
      { weight: 1, arbitrary: oversizeBody },
    );
    const extraHeaders = fc.dictionary(fc.constantFrom(...FUZZ_HEADERS), headerValue, { maxKeys: 3 });
    return fc
      .record({
        path: pathArb,
        query: queryArb,
        body: route.method === 'GET' ? fc.option(bodyArb, { freq: 8 }).map((b) => b ?? undefined) : bodyArb,
        contentType: bodyContentType,
        coding: bodyCoding,
        chunked: fc.boolean(),
        credential: fc.constantFrom(...CREDENTIALS),
        extra: extraHeaders,
        extraFirst: fc.boolean(),
      })
      .map(({ path, query, body, contentType, coding, chunked, credential, extra, extraFirst }): FuzzCase => {
        const mount = route.surface === 'market-data' ? '/market-data' : '';
        const cred = credentialHeaders(credential, creds);
        const headers: Record<string, string> = extraFirst ? { ...extra, ...cred } : { ...cred, ...extra };
        let sent: Buffer | undefined;
        if (body !== undefined) {
          const coded = encodeBody(body, coding);
          sent = coded.body;
          Object.assign(headers, bodyHeaders(contentType ?? 'application/json', coded.contentEncoding));
        }
        return {
          kind: 'rest',
          route: `${route.method} ${route.surface === 'market-data' ? '/market-data' : ''}${route.path}`,
          method: route.method,
          path: `${mount}${path}${query ? `?${query}` : ''}`,
          headers,
          body: sent,
          chunked,
        };
      });
  });
}

/** The requests to the GraphQL endpoints, credentials as for the routes. */
export function graphqlFuzzCase(creds: FuzzCredentials): fc.Arbitrary<FuzzCase> {
  const credential = fc.constantFrom(...CREDENTIALS).map((c) => credentialHeaders(c, creds));
  return graphqlFuzzRequest(credential, badScalar, RAW_BODIES).map((r): FuzzCase => ({ kind: 'graphql', ...r }));
}

/** Every case: a route of the table (most), or a GraphQL endpoint (one in eight). */
export function fuzzAll(creds: FuzzCredentials): fc.Arbitrary<FuzzCase> {
  return fc.oneof(
    { weight: 7, arbitrary: fuzzCase(fuzzRoutes(), creds) },
    { weight: 1, arbitrary: graphqlFuzzCase(creds) },
  );
}

/** Settings that give every credential kind a value, so each can be sent right and wrong. */
export const FUZZ_ENV = {
  ADMIN_TOKEN: 'fuzz-admin-token-0123456789abcdef0123',
  REWARDS_ADMIN_TOKEN: 'fuzz-rewards-token-0123456789abcdef01',
  FEED_INGEST_TOKEN: 'fuzz-feed-token-0123456789abcdef012345',
  INDEXER_SHARED_SECRET: 'fuzz-indexer-secret-0123456789abcdef01',
  PAYMENT_WEBHOOK_SECRET: 'fuzz-webhook-secret-0123456789abcdef01',
};

export interface FuzzReport {
  seed: number;
  runs: number;
  byStatus: Record<string, number>;
}

/**
 * Runs `runs` cases against the app (seed from FUZZ_SEED, else random; printed
 * first for replay). Fails on the first case breaking the property, shrunk.
 */
export async function fuzzApp(
  app: TestApp,
  creds: FuzzCredentials,
  runs: number,
  log: (line: string) => void,
): Promise<FuzzReport> {
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
  log(`route fuzz: seed ${seed} (replay with FUZZ_SEED=${seed}), ${runs} cases`);
  const byStatus: Record<string, number> = {};
  await fc.assert(
    fc.asyncProperty(fuzzAll(creds), async (c) => {
      const o = await send(app.url, c);
      byStatus[o.status] = (byStatus[o.status] ?? 0) + 1;
      const problem = problemOf(o, c.kind);
      if (problem) {
        const body = c.body ? `${c.body.toString('utf8').slice(0, 200)} (${c.body.length} bytes)` : '';
        const headers = JSON.stringify(c.headers).slice(0, 300);
        throw new Error(`${c.route} → ${c.method} ${c.path.slice(0, 300)} ${headers} ${body}: ${problem}`);
      }
    }),
    { numRuns: runs, seed, endOnFailure: false, verbose: 1 },
  );
  return { seed, runs, byStatus };
}
