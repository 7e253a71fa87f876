import { brotliCompressSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';

/**
 * Bodies for the route fuzz that go at the body gate (src/http/body-gate.ts):
 * nesting bombs (with brackets and escapes inside strings, around the nesting
 * bound and far past it), bodies over the size limit, content types and
 * codings the server does and does not read, sent declared or chunked; and
 * requests to the GraphQL endpoints (/graphql, /graphql/stream) carrying them.
 */

/** The app's body limit and nesting bound (the defaults: the fuzz app leaves both unset). */
export const FUZZ_BODY_LIMIT_BYTES = 1_048_576;
export const FUZZ_JSON_MAX_DEPTH = 64;

/** JSON string literals of brackets, quotes and escapes: text that looks like nesting and is not. */
const NOISE = ['', '"[{"', '"\\\\"', '"\\"[[{{"', '"]}]}"', '"\\\\\\"{["', '"\\u005b\\u007b"', '"{\\"a\\":[1]}"'];

/**
 * JSON text nested `depth` levels (arrays, objects or both alternating), each
 * level carrying `noise`, around `inner`; `open` leaves it unclosed (malformed).
 */
export function nestedJson(
  depth: number,
  kind: 'array' | 'object' | 'mixed',
  noise: string,
  inner = '1',
  open = false,
): string {
  const opens: string[] = [];
  const closes: string[] = [];
  for (let i = 0; i < depth; i += 1) {
    const array = kind === 'array' || (kind === 'mixed' && i % 2 === 0);
    if (array) {
      opens.push(noise ? `[${noise},` : '[');
      closes.push(']');
    } else {
      opens.push(noise ? `{"n":${noise},"a":` : '{"a":');
      closes.push('}');
    }
  }
  return opens.join('') + inner + (open ? '' : closes.reverse().join(''));
}

/** A nesting depth: mostly around the bound (either side of it), sometimes far past it. */
const bombDepth = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: FUZZ_JSON_MAX_DEPTH - 4, max: FUZZ_JSON_MAX_DEPTH + 4 }) },
  { weight: 2, arbitrary: fc.integer({ min: 500, max: 20_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 50_000, max: 200_000 }) },
);

/** A nesting bomb as JSON text (a value to place in a body or in GraphQL variables). */
export const nestingBomb: fc.Arbitrary<string> = fc
  .record({
    depth: bombDepth,
    kind: fc.constantFrom('array' as const, 'object' as const, 'mixed' as const),
    noise: fc.constantFrom(...NOISE),
    inner: fc.constantFrom('1', '"\\u0000"', '"\\ud800"', '{}', '[]', 'null', '"deep"'),
    open: fc.boolean(),
  })
  .map(({ depth, kind, noise, inner, open }) => nestedJson(depth, kind, noise, inner, open && depth % 7 === 0));

/** A body over the size limit by up to 256 KiB: a long string, a bomb, or JSON whitespace. */
export const oversizeBody: fc.Arbitrary<Buffer> = fc
  .record({
    extra: fc.integer({ min: 1, max: 256 * 1024 }),
    shape: fc.constantFrom('string', 'bomb', 'spaces'),
  })
  .map(({ extra, shape }) => {
    const size = FUZZ_BODY_LIMIT_BYTES + extra;
    if (shape === 'bomb') return Buffer.from('['.repeat(size), 'utf8');
    if (shape === 'spaces') return Buffer.alloc(size, 0x20);
    return Buffer.from(`{"a":"${'x'.repeat(size - 8)}"}`, 'utf8');
  });

/** Content types a body is sent with: the JSON one in several spellings, and types no route takes. */
export const BODY_CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON;CHARSET="UTF-8"',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/graphql',
  'application/octet-stream',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'none', // no Content-Type header at all
];

/** A body's content type: mostly the JSON one the documents name, one case in four another of the list. */
export const bodyContentType: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom(...BODY_CONTENT_TYPES) },
);

/** How a body is coded: mostly not at all; gzip and br as declared, a coding that lies, one no server reads. */
export type BodyCoding = 'none' | 'gzip' | 'br' | 'gzip-garbage' | 'compress';
export const bodyCoding: fc.Arbitrary<BodyCoding> = fc.oneof(
  { weight: 12, arbitrary: fc.constant('none' as const) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('gzip' as const, 'br' as const, 'gzip-garbage' as const, 'compress' as const),
  },
);

/** The body as sent under `coding`, and its Content-Encoding header (if any). */
export function encodeBody(body: Buffer, coding: BodyCoding): { body: Buffer; contentEncoding?: string } {
  switch (coding) {
    case 'none':
      return { body };
    case 'gzip':
      return { body: gzipSync(body), contentEncoding: 'gzip' };
    case 'br':
      return { body: brotliCompressSync(body), contentEncoding: 'br' };
    case 'gzip-garbage':
      return { body, contentEncoding: 'gzip' };
    case 'compress':
      return { body, contentEncoding: 'compress' };
  }
}

/** Sets the body headers of a request: its type (unless `none`) and coding. */
export function bodyHeaders(contentType: string, contentEncoding: string | undefined): Record<string, string> {
  return {
    ...(contentType !== 'none' && { 'content-type': contentType }),
    ...(contentEncoding !== undefined && { 'content-encoding': contentEncoding }),
  };
}

/** A query-string value with brackets left readable (they are legal there, and keep deep JSON short). */
function queryValue(text: string): string {
  return encodeURIComponent(text).replace(/%5B/g, '[').replace(/%5D/g, ']').replace(/%7B/g, '{').replace(/%7D/g, '}');
}

const GRAPHQL_DOCUMENTS = [
  '{ __typename }',
  'query($skip: Boolean!) { __typename @skip(if: $skip) }',
  'mutation($v: JSONObject!) { updatePreferences(values: $v) }',
  'subscription { trades { id } }',
  'subscription($venue: Venue) { trades(venue: $venue) { id } }',
  '{',
  '',
];

/** The GraphQL endpoints' methods: Apollo (GET, POST), graphql-sse (reservation, stream, operation requests). */
const GRAPHQL_ENDPOINTS: [string, string][] = [
  ['POST', '/graphql'],
  ['GET', '/graphql'],
  ['POST', '/graphql/stream'],
  ['GET', '/graphql/stream'],
  ['PUT', '/graphql/stream'],
  ['DELETE', '/graphql/stream'],
];

/** One generated request to a GraphQL endpoint. */
export interface GraphqlFuzzRequest {
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  chunked: boolean;
}

/**
 * Requests to the GraphQL endpoints: variables that are nesting bombs (in the
 * body, or in a GET query string), malformed or wrong-typed variables, raw
 * and oversize bodies under every content type and coding, declared or
 * chunked; `credential` supplies each case's credential headers.
 */
export function graphqlFuzzRequest(
  credential: fc.Arbitrary<Record<string, string>>,
  scalar: fc.Arbitrary<unknown>,
  rawBodies: readonly Buffer[],
): fc.Arbitrary<GraphqlFuzzRequest> {
  const variables = fc.oneof(
    { weight: 3, arbitrary: nestingBomb.map((bomb) => `{"v":${bomb},"skip":false}`) },
    { weight: 2, arbitrary: scalar.map((v) => JSON.stringify({ v, skip: v }) ?? 'null') },
    { weight: 1, arbitrary: fc.constantFrom('{', '[]', 'null', '"x"', '{"venue":"venue_b"}', '{"skip":false}') },
  );
  const documentBody = fc
    .record({ query: fc.constantFrom(...GRAPHQL_DOCUMENTS), variables, operationName: fc.option(fc.string()) })
    .map(({ query, variables: vars, operationName }) => {
      const name = operationName === null ? '' : `,"operationName":${JSON.stringify(operationName)}`;
      return Buffer.from(`{"query":${JSON.stringify(query)},"variables":${vars}${name}}`, 'utf8');
    });
  const body: fc.Arbitrary<Buffer | undefined> = fc.oneof(
    { weight: 6, arbitrary: documentBody },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(...rawBodies) },
    { weight: 1, arbitrary: oversizeBody },
  );
  return fc
    .record({
      endpoint: fc.constantFrom(...GRAPHQL_ENDPOINTS),
      query: fc.constantFrom(...GRAPHQL_DOCUMENTS),
      variables,
      body,
      contentType: bodyContentType,
      coding: bodyCoding,
      chunked: fc.boolean(),
      accept: fc.constantFrom(undefined, 'text/event-stream', 'application/json', 'application/graphql-response+json'),
      preflight: fc.boolean(),
      token: fc.option(fc.constantFrom('00000000-0000-0000-0000-000000000000', 'x', '')),
      credentials: credential,
    })
    .map((c): GraphqlFuzzRequest => {
      const [method, path] = c.endpoint;
      const search =
        method === 'GET'
          ? `?query=${queryValue(c.query)}&variables=${queryValue(c.variables)}`
          : method === 'DELETE'
            ? '?operationId=x'
            : '';
      const headers: Record<string, string> = { ...c.credentials };
      if (c.accept !== undefined) headers.accept = c.accept;
      if (c.preflight) headers['apollo-require-preflight'] = 'true';
      if (c.token !== null) headers['x-graphql-event-stream-token'] = c.token;
      let sent: Buffer | undefined;
      if (c.body !== undefined && method !== 'GET') {
        const coded = encodeBody(c.body, c.coding);
        sent = coded.body;
        Object.assign(headers, bodyHeaders(c.contentType, coded.contentEncoding));
      }
      return { route: `${method} ${path}`, method, path: `${path}${search}`, headers, body: sent, chunked: c.chunked };
    });
}
