/**
 * A protected route checks its credential before it reads its inputs: a caller
 * without one gets 401 (a webhook whose secret is unset: 500) whatever it sent,
 * never a 400 that describes the input rules. Tested as a table over every
 * trading route, with unreadable bodies and out-of-range query parameters.
 */
import { ROUTES } from '../../../rest-adapter/routes';
import type { AnyRouteDef } from '../../../rest-adapter/route.types';
import { http, startTestApp, type TestApp } from '../../support/app';

const protectedRoutes = ROUTES.filter(
  (r) => r.surface === 'trading' && !['none', 'optional-bearer', 'api-key'].includes(r.auth),
);
const headerTokenRoutes = protectedRoutes.filter((r) =>
  ['admin', 'rewards-admin', 'feed-ingest', 'bearer+admin'].includes(r.auth),
);
const bearerRoutes = protectedRoutes.filter((r) => r.auth === 'bearer' || r.auth === 'bearer+admin');
const webhookRoutes = protectedRoutes.filter((r) => r.auth === 'indexer-secret' || r.auth === 'payment-signature');

/** The route's path with every parameter filled, and every usual paging parameter out of range. */
const urlOf = (base: string, r: AnyRouteDef) =>
  `${base}${r.path.replace(/\{[^}]+\}/g, 'x')}?limit=-1&offset=-1&page=0&status=nonsense`;

const BODIES: [string, string | undefined][] = [
  ['malformed JSON', '{"unterminated": '],
  ['a body of the wrong shape', JSON.stringify({ unexpected: [1, 2, 3] })],
];

async function call(base: string, r: AnyRouteDef, body: string | undefined, headers: Record<string, string> = {}) {
  const hasBody = r.method !== 'GET';
  return http(urlOf(base, r), {
    method: r.method,
    headers: { ...(hasBody && { 'content-type': 'application/json' }), ...headers },
    body: hasBody ? body : undefined,
  });
}

let app: TestApp;
let unconfigured: TestApp;
beforeAll(async () => {
  app = await startTestApp({ PAYMENT_WEBHOOK_SECRET: 'whsec_test', INDEXER_SHARED_SECRET: 'indexer-secret' });
  unconfigured = await startTestApp();
});
afterAll(async () => {
  await unconfigured?.close();
  await app?.close();
});

it('covers every kind of protected trading route', () => {
  expect(new Set(protectedRoutes.map((r) => r.auth))).toEqual(
    new Set(['bearer', 'bearer+admin', 'admin', 'rewards-admin', 'feed-ingest', 'indexer-secret', 'payment-signature']),
  );
});

describe.each(BODIES)('with %s and bad query parameters', (_what, body) => {
  it.each(protectedRoutes.filter((r) => r.auth !== 'payment-signature').map((r) => [r.method, r.path, r] as const))(
    '%s %s without a credential → 401',
    async (_m, _p, r) => {
      const res = await call(app.url, r, body);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 401,
        body: { error: 'unauthorized', message: expect.any(String) },
      });
    },
  );

  it.each(bearerRoutes.map((r) => [r.method, r.path, r] as const))(
    '%s %s with an invalid bearer token → 401',
    async (_m, _p, r) => {
      const res = await call(app.url, r, body, { authorization: 'Bearer not-a-jwt' });
      expect(res.status).toBe(401);
    },
  );

  it.each(headerTokenRoutes.map((r) => [r.method, r.path, r] as const))(
    '%s %s with a valid bearer but a wrong header token → 401',
    async (_m, _p, r) => {
      const headers = {
        ...(await app.bearer('credentials-first-user')),
        'x-admin-token': 'wrong',
        'x-rewards-admin-token': 'wrong',
        'x-feed-ingest-token': 'wrong',
      };
      const res = await call(app.url, r, body, headers);
      expect(res.status).toBe(401);
    },
  );

  it.each(webhookRoutes.map((r) => [r.method, r.path, r] as const))(
    '%s %s with its secret unset → 500',
    async (_m, _p, r) => {
      const res = await call(unconfigured.url, r, body, {
        'x-indexer-secret': 'anything',
        'payment-signature': 't=1,v1=00',
      });
      expect(res.status).toBe(500);
      expect((res.body as { error: string }).error).toBe('internal');
    },
  );
});

it('with a credential, the same unreadable body is a 400 naming the body', async () => {
  const r = ROUTES.find((x) => x.surface === 'trading' && x.method === 'POST' && x.path === '/api/wallets/import')!;
  const res = await call(app.url, r, '{"unterminated": ', await app.bearer('credentials-first-user'));
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ error: 'bad_request', message: 'body: malformed JSON' });
});

it('a public route answers an unreadable body with 400, and /graphql too', async () => {
  const route = await http(`${app.url}/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{',
  });
  expect(route.status).toBe(400);
  expect(route.body).toEqual({ error: 'bad_request', message: 'body: malformed JSON' });
  const gql = await http(`${app.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{',
  });
  expect(gql.status).toBe(400);
  expect(gql.body).toEqual({ error: 'bad_request', message: 'body: malformed JSON' });
});
