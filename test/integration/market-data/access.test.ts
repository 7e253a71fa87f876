import type {
  MdApiKeysQuery,
  MdCreateApiKeyMutation,
  MdRateLimitQuery,
  MdUsageQuery,
} from '../../../schema/generated/operations';
import { PLAN_LIMITS } from '../../../src/modules/api-keys';
import { UsageService } from '../../../src/modules/usage/usage.service';
import { UsageRecorder } from '../../../src/modules/usage/usage.recorder';
import { bearer, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';
import { issueKey, md, rateHeaders } from './md-helpers';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

describe('authentication', () => {
  it('accepts the key as a bearer or as X-API-Key', async () => {
    const { key } = await issueKey(app);
    const asBearer = await md(app, '/api/events/categories', undefined, { headers: bearer(key) });
    const header = await md(app, '/api/events/categories', undefined, { headers: { 'x-api-key': key } });
    expect(asBearer.status).toBe(200);
    expect(header.status).toBe(200);
    expect(header.body).toEqual(asBearer.body);
  });

  it('lets the bearer win when both headers are sent', async () => {
    const good = await issueKey(app);
    const other = await issueKey(app);
    const badBearer = await md(app, '/api/keys', undefined, {
      headers: { authorization: 'Bearer mk_live_0000000000000000000000000000000000000', 'x-api-key': good.key },
    });
    expect(badBearer.status).toBe(401);
    // Both valid: the bearer's owner is the one served.
    const both = await md(app, '/api/keys', undefined, {
      headers: { ...bearer(other.key), 'x-api-key': good.key },
    });
    expect(both.status).toBe(200);
    expect((both.body as MdApiKeysQuery['apiKeys']).map((k) => k.id)).toEqual([other.id]);
  });

  it('answers 401 unauthorized with rate-limit headers for a missing, malformed or unknown key', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer nope' },
      { 'x-api-key': 'mk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      { authorization: 'Basic abc' },
    ];
    for (const headers of attempts) {
      const r = await md(app, '/api/markets', undefined, { headers });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
      const h = rateHeaders(r.headers);
      expect(h.limit).toBe(60);
      expect(r.headers.get('ratelimit-policy')).toBe('"anonymous";q=60;w=60');
    }
  });

  it('answers 403 forbidden with headers when the key lacks the scope', async () => {
    const writeOnly = await issueKey(app, { scopes: ['write'] });
    // Warm the per-process answer cache first: a cached answer must still be guarded.
    expect((await md(app, '/api/markets?limit=1', (await issueKey(app)).key)).status).toBe(200);
    const read = await md(app, '/api/markets?limit=1', writeOnly.key);
    expect(read.status).toBe(403);
    expect(read.body).toEqual({ error: 'forbidden', message: expect.stringContaining('read') });
    expect(rateHeaders(read.headers).limit).toBe(PLAN_LIMITS.enterprise);

    const readOnly = await issueKey(app, { scopes: ['read'] });
    const create = await md(app, '/api/keys', readOnly.key, { method: 'POST', json: { name: 'x', scopes: ['read'] } });
    expect(create.status).toBe(403);
    expect(rateHeaders(create.headers).limit).toBe(PLAN_LIMITS.enterprise);
    const revoke = await md(app, `/api/keys/${readOnly.id}`, readOnly.key, { method: 'DELETE' });
    expect(revoke.status).toBe(403);
  });

  it('puts the headers on 400 and 404 answers too, and on unrouted paths of the surface', async () => {
    const { key } = await issueKey(app);
    for (const [path, status] of [
      ['/api/markets?limit=0', 400],
      ['/api/markets/venue_a/does-not-exist', 404],
      ['/api/nothing-here', 404],
    ] as const) {
      const r = await md(app, path, key);
      expect(r.status).toBe(status);
      rateHeaders(r.headers);
    }
    const malformed = await md(app, '/api/keys', key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(malformed.status).toBe(400);
    rateHeaders(malformed.headers);
  });
});

describe('rate limits', () => {
  it('refuses the 61st free-plan request of a minute with 429 rate_limited and the headers', async () => {
    const { key } = await issueKey(app, { plan: 'free' });
    let last = { limit: 0, remaining: -1, reset: 0 };
    for (let i = 1; i <= 60; i += 1) {
      const r = await md(app, '/api/events/categories', key);
      expect(r.status).toBe(200);
      last = rateHeaders(r.headers);
      expect(last.remaining).toBe(60 - i);
    }
    expect(last.limit).toBe(60);
    expect(last.reset * 1000).toBeGreaterThan(Date.now());
    const over = await md(app, '/api/events/categories', key);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: 'rate_limited', message: expect.any(String) });
    const h = rateHeaders(over.headers);
    expect(h).toMatchObject({ limit: 60, remaining: 0 });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Quota status stays readable, and reading it spends nothing.
    const status = await md(app, '/api/users/me/rate-limit', key);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ plan: 'free', limit: 60, remaining: 0, window: '1m' });
  });

  it('reports plan, limit, remaining and reset without consuming quota', async () => {
    const { key } = await issueKey(app, { plan: 'pro' });
    await md(app, '/api/events/categories', key);
    const first = await md(app, '/api/users/me/rate-limit', key);
    const second = await md(app, '/api/users/me/rate-limit', key);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ plan: 'pro', limit: 600, remaining: 599, reset: expect.any(Number), window: '1m' });
    expect(second.body).toMatchObject({ remaining: 599 });
    expect(rateHeaders(second.headers).remaining).toBe(599);
    expect((first.body as MdRateLimitQuery['apiRateLimit']).reset * 1000).toBeGreaterThan(Date.now());
  });

  it('limits requests without a valid key per client address', async () => {
    const fresh = await startTestApp();
    try {
      for (let i = 0; i < 60; i += 1) expect((await md(fresh, '/api/markets', 'mk_live_wrong')).status).toBe(401);
      const over = await md(fresh, '/api/markets', 'mk_live_wrong');
      expect(over.status).toBe(429);
      expect(rateHeaders(over.headers).remaining).toBe(0);
    } finally {
      await fresh.close();
    }
  });
});

describe('API keys', () => {
  it('creates (201, full key once), lists (preview, last use) and revokes (200) keys of the caller', async () => {
    const admin = await issueKey(app, { plan: 'pro' });
    const created = await md(app, '/api/keys', admin.key, {
      method: 'POST',
      json: { name: 'reporting', scopes: ['read'] },
    });
    expect(created.status).toBe(201);
    const key = created.body as MdCreateApiKeyMutation['createApiKey'];
    expect(key).toEqual({
      id: expect.stringMatching(/^key_/),
      name: 'reporting',
      key: expect.stringMatching(/^mk_live_[0-9A-Za-z]{33}$/),
      key_preview: expect.stringMatching(/^mk_live_.{4}….{4}$/),
      scopes: ['read'],
      plan: 'pro',
      created_at: expect.any(String),
    });
    expect(key.key.startsWith(key.key_preview.slice(0, 12))).toBe(true);
    expect(key.key.endsWith(key.key_preview.slice(-4))).toBe(true);

    expect((await md(app, '/api/events/categories', key.key)).status).toBe(200);
    await app.services.get(UsageRecorder).flush();
    const list = await md(app, '/api/keys', admin.key);
    expect(list.status).toBe(200);
    const listed = list.body as Record<string, unknown>[];
    expect(listed.map((k) => k.id)).toEqual([admin.id, key.id]);
    const mine = listed.find((k) => k.id === key.id)!;
    expect(mine).not.toHaveProperty('key');
    expect(mine).toMatchObject({ key_preview: key.key_preview, scopes: ['read'], last_used_at: expect.any(String) });
    // The database never sees the key itself.
    const row = await app.services.db.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(JSON.stringify(row)).not.toContain(key.key);

    const revoked = await md(app, `/api/keys/${key.id}`, admin.key, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ id: key.id, revoked: true, revoked_at: expect.any(String) });
    const after = await md(app, '/api/events/categories', key.key);
    expect(after.status).toBe(401);
    rateHeaders(after.headers);
    expect(((await md(app, '/api/keys', admin.key)).body as MdApiKeysQuery['apiKeys']).map((k) => k.id)).toEqual([
      admin.id,
    ]);
    // Idempotent, and permanent.
    const again = await md(app, `/api/keys/${key.id}`, admin.key, { method: 'DELETE' });
    expect(again.body).toEqual(revoked.body);
  });

  it("validates the body and refuses to revoke another owner's key", async () => {
    const a = await issueKey(app);
    const b = await issueKey(app);
    for (const json of [
      { scopes: ['read'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['admin'] },
      { name: 'x', scopes: ['read', 'read'] },
      { name: '', scopes: ['read'] },
    ]) {
      const r = await md(app, '/api/keys', a.key, { method: 'POST', json });
      expect(r.status).toBe(400);
      expect((r.body as { message: string }).message).toMatch(/^(name|scopes)/);
    }
    const foreign = await md(app, `/api/keys/${b.id}`, a.key, { method: 'DELETE' });
    expect(foreign.status).toBe(404);
    expect((await md(app, '/api/keys', b.key)).status).toBe(200);
  });
});

describe('usage', () => {
  it('counts each request per endpoint template and UTC day, with contiguous days', async () => {
    const { key, owner } = await issueKey(app);
    for (let i = 0; i < 3; i += 1) await md(app, '/api/events/categories', key);
    await md(app, '/api/markets/venue_a/nope', key);
    await md(app, '/api/markets/venue_b/nope-either', key);
    await app.services.get(UsageRecorder).flush();
    await md(app, '/api/markets?limit=1', key);
    const r = await md(app, '/api/users/me/usage?days=7', key);
    expect(r.status).toBe(200);
    const body = r.body as MdUsageQuery['apiUsage'];
    // 6 requests before, plus this one.
    expect(body.period_days).toBe(7);
    expect(body.total_requests).toBe(7);
    expect(body.by_endpoint).toEqual({
      '/api/events/categories': 3,
      '/api/markets': 1,
      '/api/markets/{venue}/{market_id}': 2,
      '/api/users/me/usage': 1,
    });
    expect(body.daily_usage).toHaveLength(7);
    const today = new Date().toISOString().slice(0, 10);
    expect(body.daily_usage[6]).toEqual({ date: today, requests: 7 });
    for (let i = 1; i < 7; i += 1) {
      expect(Date.parse(body.daily_usage[i].date) - Date.parse(body.daily_usage[i - 1].date)).toBe(86_400_000);
    }
    expect(body.daily_usage.slice(0, 6).every((d) => d.requests === 0)).toBe(true);
    const stored = await app.services.db.prisma.apiUsageDaily.findMany({ where: { owner } });
    expect(stored.reduce((n, s) => n + Number(s.requests), 0)).toBe(5);

    const dflt = await md(app, '/api/users/me/usage', key);
    expect((dflt.body as MdUsageQuery['apiUsage']).daily_usage).toHaveLength(30);
    for (const bad of ['0', '91', 'x'])
      expect((await md(app, `/api/users/me/usage?days=${bad}`, key)).status).toBe(400);
  });
});

describe('GraphQL with an API key', () => {
  const QUERY = '{ eventCategories { category count } apiRateLimit { plan limit remaining } }';

  it('applies the same key, scope, limit and usage rules, once per request', async () => {
    const { key, owner } = await issueKey(app, { plan: 'pro' });
    const r = await gql(app, QUERY, {}, { 'x-api-key': key });
    expect(r.status).toBe(200);
    const data = (r.body as { data: { eventCategories: unknown[]; apiRateLimit: { remaining: number } } }).data;
    expect(data.eventCategories.length).toBeGreaterThan(0);
    // Two market-data fields, one request counted.
    expect(data.apiRateLimit.remaining).toBe(599);
    expect(rateHeaders(r.headers).remaining).toBe(599);
    const usage = await app.services.get(UsageService).report(owner, 1);
    expect(usage.byEndpoint).toEqual({ '/graphql': 1 });

    const anonymous = await gql(app, QUERY);
    expect(anonymous.body.errors![0].extensions.code).toBe('unauthorized');
    const readOnly = await issueKey(app, { scopes: ['read'] });
    const forbidden = await gql(
      app,
      'mutation { createApiKey(name: "x", scopes: [read]) { id } }',
      {},
      bearer(readOnly.key),
    );
    expect(forbidden.body.errors![0].extensions.code).toBe('forbidden');
  });

  it('takes the key from X-API-Key when the bearer carries a user token', async () => {
    // A field that needs the key: the user token alone does not answer it.
    const KEYED = '{ eventCategories { category } apiRateLimit { plan limit remaining } }';
    const user = await app.bearer('user-1');
    const alone = await gql(app, KEYED, {}, user);
    expect(alone.body.errors?.[0].extensions.code).toBe('unauthorized');
    const { key, owner } = await issueKey(app, { plan: 'pro' });
    const r = await gql(app, KEYED, {}, { ...user, 'x-api-key': key });
    expect(r.body.errors).toBeUndefined();
    expect((r.body as { data: { apiRateLimit: unknown } }).data.apiRateLimit).toEqual({
      plan: 'pro',
      limit: PLAN_LIMITS.pro,
      remaining: PLAN_LIMITS.pro - 1,
    });
    expect(rateHeaders(r.headers).remaining).toBe(PLAN_LIMITS.pro - 1);
    await app.services.get(UsageRecorder).flush();
    expect((await app.services.get(UsageService).report(owner, 1)).byEndpoint).toEqual({ '/graphql': 1 });
  });

  it('issues keys for any owner with the admin token only', async () => {
    const mutation =
      'mutation { issueApiKey(owner: "acme", name: "bootstrap", scopes: [read, write], plan: pro) { id key plan } }';
    const refused = await gql(app, mutation);
    expect(refused.body.errors![0].extensions.code).toBe('unauthorized');
    const ok = await gql(app, mutation, {}, { 'x-admin-token': app.config.tokens.admin });
    const issued = (ok.body as { data: { issueApiKey: { key: string; plan: string } } }).data.issueApiKey;
    expect(issued.plan).toBe('pro');
    expect((await md(app, '/api/keys', issued.key)).status).toBe(200);
  });
});
