import { NotificationsService } from '../../../src/modules/notifications';
import { startTestApp, type TestApp } from '../../support/app';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream';
import { gql } from '../../support/graphql';
import { describeOnPostgres } from '../../support/modes';

/**
 * Device tokens per user are bounded (`PUSH_TOKENS_PER_USER`, 20): registering one more drops the
 * user's least recently registered ones, so a client following the interface never gets an error
 * for it, and a notification fans out to at most that many devices. Registrations are rate limited
 * per user (`PUSH_TOKEN_RATE_LIMIT`, 30 a minute).
 */
const device = (sub: string, n: number) => `device-${sub}-${String(n).padStart(4, '0')}-0123456789`;

async function tokensOf(app: TestApp, userId: string): Promise<string[]> {
  const rows = await app.services.db.prisma.pushToken.findMany({ where: { userId }, orderBy: { token: 'asc' } });
  return rows.map((r) => r.token);
}

describe('push tokens per user (defaults)', () => {
  let app: TestApp;
  let provider: FakeUpstream;
  beforeAll(async () => {
    provider = await startFakeUpstream(() => ({ status: 200, body: {} }));
    app = await startTestApp({
      PUSH_PROVIDER_URL: `${provider.url}/v1`,
      PUSH_PROVIDER_KEY: 'push-key',
      // The limit is counted in Redis (PostgreSQL + Redis pass). A test process starved of CPU for
      // over a second would time a command out and fall back to counting in-process from then on
      // (docs/deployment.md#failures), which is not what this test is about.
      REDIS_COMMAND_TIMEOUT_MS: '10000',
    });
  });
  afterAll(async () => {
    await app.close();
    await provider.close();
  });

  it('keeps the 20 most recently registered devices, every registration answered 201', async () => {
    for (let n = 1; n <= 25; n++) {
      const r = await app.as('pia').post('/api/push-tokens', { token: device('pia', n), platform: 'ios' });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ token: device('pia', n), platform: 'ios' });
    }
    const kept = await tokensOf(app, 'pia');
    expect(kept).toEqual(Array.from({ length: 20 }, (_, i) => device('pia', i + 6)));
  });

  it('counts a re-registration as recent: the device re-registered survives the next newcomer', async () => {
    // Device 6 is the least recently registered; registering it again makes device 7 the oldest.
    expect((await app.as('pia').post('/api/push-tokens', { token: device('pia', 6), platform: 'ios' })).status).toBe(
      201,
    );
    expect((await app.as('pia').post('/api/push-tokens', { token: device('pia', 26), platform: 'ios' })).status).toBe(
      201,
    );
    const kept = await tokensOf(app, 'pia');
    expect(kept).toHaveLength(20);
    expect(kept).toContain(device('pia', 6));
    expect(kept).not.toContain(device('pia', 7));
    expect(kept).toContain(device('pia', 26));
  });

  it('fans a notification out to the kept devices only', async () => {
    const before = provider.requests.length;
    await app.services.get(NotificationsService).notify([{ userId: 'pia', kind: 'reward', title: 't', body: 'b' }]);
    await app.services.get(NotificationsService).settled();
    const sent = provider.requests.slice(before).filter((r) => r.path === '/v1/send');
    const tokens = sent.flatMap((r) => (r.body as { tokens: string[] }).tokens);
    expect(tokens.sort()).toEqual(await tokensOf(app, 'pia'));
    expect(tokens).toHaveLength(20);
  });

  it('takes a device over from another user without touching that user’s other devices', async () => {
    await app.as('quinn').post('/api/push-tokens', { token: device('quinn', 1), platform: 'android' });
    await app.as('quinn').post('/api/push-tokens', { token: device('pia', 26), platform: 'android' });
    expect(await tokensOf(app, 'quinn')).toEqual([device('pia', 26), device('quinn', 1)]);
    expect(await tokensOf(app, 'pia')).toHaveLength(19);
  });

  it('rate limits registrations per user: 429 with Retry-After beyond 30 a minute, GraphQL too', async () => {
    for (let n = 1; n <= 30; n++) {
      const r = await app.as('rita').post('/api/push-tokens', { token: device('rita', n), platform: 'web' });
      expect(r.status).toBe(201);
    }
    const over = await app.as('rita').post('/api/push-tokens', { token: device('rita', 31), platform: 'web' });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: 'rate_limited', message: expect.stringMatching(/rate limit exceeded/) });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    const viaGraphql = await gql(
      app,
      `mutation { registerPushToken(token: "${device('rita', 32)}", platform: "web") { token } }`,
      {},
      await app.bearer('rita'),
    );
    expect(viaGraphql.body.errors![0].extensions.code).toBe('rate_limited');
    expect(await tokensOf(app, 'rita')).toHaveLength(20);
    // Another user has a bucket of their own.
    expect((await app.as('sam').post('/api/push-tokens', { token: device('sam', 1), platform: 'web' })).status).toBe(
      201,
    );
  });
});

// PGlite runs one transaction at a time: concurrent registrations only race on PostgreSQL.
describeOnPostgres('push tokens per user under concurrent registrations (PostgreSQL)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ PUSH_TOKENS_PER_USER: '5', PUSH_TOKEN_RATE_LIMIT: '1000' });
  });
  afterAll(() => app.close());

  it('never leaves more than the cap, however many registrations race', async () => {
    for (let n = 1; n <= 5; n++) {
      await app.as('tess').post('/api/push-tokens', { token: device('tess', n), platform: 'ios' });
    }
    for (let round = 0; round < 5; round++) {
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          app.as('tess').post('/api/push-tokens', { token: device('tess', 100 + round * 12 + i), platform: 'ios' }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));
      expect(await tokensOf(app, 'tess')).toHaveLength(5);
    }
  });
});
