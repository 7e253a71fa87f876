import { bearer, http, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';

/**
 * Per-user limits (per client for the public `/route`) on comments, likes,
 * follows, payment intents, route intents and stored (paper) simulations: beyond the limit 429
 * `rate_limited` with `Retry-After`, over REST and GraphQL alike.
 */
let app: TestApp;
let slug: string;
beforeAll(async () => {
  app = await startTestApp({
    COMMENT_RATE_LIMIT: '2',
    LIKE_RATE_LIMIT: '3',
    FOLLOW_RATE_LIMIT: '2',
    PAYMENT_INTENT_RATE_LIMIT: '2',
    ROUTE_RATE_LIMIT: '2',
    SIMULATION_RATE_LIMIT: '2',
  });
  slug = app.services.world.coreEvents[2].slug;
});
afterAll(async () => {
  await app.close();
});

function expectLimited(r: { status: number; body: unknown; headers: Headers }) {
  expect(r.status).toBe(429);
  expect(r.body).toMatchObject({ error: 'rate_limited', message: expect.any(String) });
  expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

it('comments: COMMENT_RATE_LIMIT creations a minute per user, on events and replies alike', async () => {
  const post = (who: string, json: unknown) => app.as(who).post(`/api/events/${slug}/comments`, json);
  const first = await post('c-limited', { body: 'one' });
  expect(first.status).toBe(201);
  const id = (first.body as { id: string }).id;
  expect((await post('c-limited', { body: 'two', parentId: id })).status).toBe(201);
  expectLimited(await post('c-limited', { body: 'three' }));
  // Another user has a bucket of their own.
  expect((await post('c-other', { body: 'hers' })).status).toBe(201);
  // GraphQL shares the bucket.
  const g = await gql(
    app,
    'mutation($e: String!) { createEventComment(event: $e, body: "four") { id } }',
    { e: slug },
    await app.bearer('c-limited'),
  );
  expect(g.body.errors?.[0]?.extensions.code).toBe('rate_limited');
});

it('likes: LIKE_RATE_LIMIT likes and unlikes a minute per user', async () => {
  const c = await app.as('l-author').post(`/api/events/${slug}/comments`, { body: 'like me' });
  const id = (c.body as { id: string }).id;
  const liker = app.as('l-limited');
  expect((await liker.post(`/api/comments/${id}/like`)).status).toBe(200);
  expect((await liker.delete(`/api/comments/${id}/like`)).status).toBe(200);
  expect((await liker.post(`/api/comments/${id}/like`)).status).toBe(200);
  expectLimited(await liker.delete(`/api/comments/${id}/like`));
  expect((await app.as('l-other').post(`/api/comments/${id}/like`)).status).toBe(200);
});

it('follows: FOLLOW_RATE_LIMIT follows and unfollows a minute per user', async () => {
  const trader = `0x${'ab'.repeat(20)}`;
  const f = app.as('f-limited');
  expect((await f.post('/api/follows', { venue: 'venue_a', traderId: trader })).status).toBe(201);
  expect((await f.delete(`/api/follows/venue_a/${trader}`)).status).toBe(200);
  expectLimited(await f.post('/api/follows', { venue: 'venue_a', traderId: trader }));
});

it('payment intents: PAYMENT_INTENT_RATE_LIMIT a minute per user; a key replay spends nothing', async () => {
  const p = app.as('p-limited');
  const key = { 'idempotency-key': 'intent-1' };
  const first = await p.post('/api/funding/intent', { amount: 5, currency: 'usd' }, key);
  expect(first.status).toBe(200);
  for (let i = 0; i < 3; i += 1) {
    expect((await p.post('/api/funding/intent', { amount: 5, currency: 'usd' }, key)).body).toEqual(first.body);
  }
  // The replays spent no place in the limit (a second new intent still fits) and made no intent of their own.
  expect((await p.post('/api/funding/intent', { amount: 6, currency: 'usd' })).status).toBe(200);
  expectLimited(await p.post('/api/funding/intent', { amount: 7, currency: 'usd' }));
  expect(await app.services.db.prisma.fundingTransaction.count({ where: { userId: 'p-limited' } })).toBe(2);
});

it('route intents: ROUTE_RATE_LIMIT stored intents a minute per client', async () => {
  const route = (json: unknown) => http(`${app.url}/route`, { method: 'POST', json });
  const body = { coreId: 'evt_nope', userId: 'r-user', accountId: 'acct' };
  expect((await route(body)).status).toBe(404);
  expect((await route({ ...body, userId: 'r-other' })).status).toBe(404);
  expectLimited(await route(body));
});

it('an unauthenticated request spends nothing: 401 before the limit', async () => {
  const consumed = jest.spyOn(app.services.rateLimits, 'consume');
  try {
    for (let i = 0; i < 3; i += 1) {
      const r = await http(`${app.url}/api/events/${slug}/comments`, {
        method: 'POST',
        json: { body: 'anon' },
        headers: bearer('not-a-token'),
      });
      expect(r.status).toBe(401);
    }
    // More refused requests than COMMENT_RATE_LIMIT, none of which reached a limit's counter.
    expect(consumed).not.toHaveBeenCalled();
  } finally {
    consumed.mockRestore();
  }
});

it('stored simulations: SIMULATION_RATE_LIMIT a minute per user; anonymous ones store nothing', async () => {
  const marketId = app.services.world.coreEvents[2].markets[0].venueMarketIds.venue_a!;
  const order = { marketId, side: 'buy', outcome: 'yes', size: 1 };
  const execute = async (headers: Record<string, string>) =>
    http(`${app.url}/execute`, { method: 'POST', headers: { accept: 'text/event-stream', ...headers }, json: order });
  const user = await app.bearer('sim-limited');
  const prisma = app.services.db.prisma;
  expect((await execute(user)).status).toBe(200);
  expect((await execute(user)).status).toBe(200);
  expectLimited(await execute(user));
  expect(await prisma.order.count({ where: { userId: 'sim-limited' } })).toBe(2);
  expect((await execute(await app.bearer('sim-other'))).status).toBe(200);
  // Anonymous simulations, beyond the limit too: answered, and nothing is written.
  const rows = () => Promise.all([prisma.order.count(), prisma.fill.count(), prisma.ledgerEntry.count()]);
  const before = await rows();
  for (let i = 0; i < 3; i++) {
    const r = await execute({});
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/^event: completed$/m);
  }
  expect(await rows()).toEqual(before);
});
