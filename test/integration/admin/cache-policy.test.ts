import type { CachePolicyQuery } from '../../../schema/generated/operations';
import { ROUTES } from '../../../rest-adapter/routes';
import { LOOKUP_MAX_ENTRIES, LOOKUP_TTL_MS } from '../../../src/modules/api-keys/api-keys.service';
import { API_KEY_REVOKED_TOPIC } from '../../../src/modules/api-keys';
import { HISTORY_CACHE_TTL_SECONDS } from '../../../src/modules/charts';
import { CATALOG_CHANGED_TOPIC } from '../../../src/modules/events';
import { http, startTestApp, type TestApp } from '../../support/app';

type Policy = CachePolicyQuery['cachePolicy'];

const TOKEN = 'admin-test-token';
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ADMIN_TOKEN: TOKEN, ETAG_MAX_AGE_SECONDS: '17' });
});
afterAll(async () => {
  await app.close();
});

const get = (token?: string) =>
  http(`${app.url}/api/admin/storage/cache-policy`, { headers: token === undefined ? {} : { 'x-admin-token': token } });

describe('GET /api/admin/storage/cache-policy', () => {
  it('401 without or with a wrong X-Admin-Token (the rewards admin token is not it)', async () => {
    expect((await get()).status).toBe(401);
    expect((await get('wrong')).status).toBe(401);
    expect((await get(app.config.tokens.rewardsAdmin)).status).toBe(401);
  });

  it('the history TTL table in force, per interval', async () => {
    const p = (await get(TOKEN)).body as Policy;
    expect(p.store).toBe(app.services.infra.kind);
    expect(p.history.store).toBe(app.services.infra.kind);
    expect(Object.fromEntries(p.history.ttls.map((t) => [t.interval, t.seconds]))).toEqual(HISTORY_CACHE_TTL_SECONDS);
    // The interface fixes the ends: 30 s at 1m, 1 h at 1d.
    expect(p.history.ttls.find((t) => t.interval === '1m')!.seconds).toBe(30);
    expect(p.history.ttls.find((t) => t.interval === '1d')!.seconds).toBe(3600);
  });

  it('the ETag policy is what an event route actually sends', async () => {
    const p = (await get(TOKEN)).body as Policy;
    expect(p.etag.maxAgeSeconds).toBe(17);
    const events = await http(`${app.url}/api/events`);
    expect(events.headers.get('etag')).toBeTruthy();
    expect(p.etag.cacheControl).toBe(events.headers.get('cache-control'));
    expect(p.etag.routes).toEqual(expect.arrayContaining([{ surface: 'trading', method: 'GET', path: '/api/events' }]));
    expect(p.etag.routes).toHaveLength(ROUTES.filter((r) => r.etag).length);
  });

  it('the REST response caches of the route table, the catalog memos and the API-key lookup cache', async () => {
    const p = (await get(TOKEN)).body as Policy;
    const cached = ROUTES.filter((r) => r.cache);
    expect(cached.length).toBeGreaterThan(0);
    expect(p.responseCaches.map((c) => [c.routeId, c.ttlSeconds * 1000, c.invalidatedBy])).toEqual(
      cached.map((r) => [r.id, app.config.readCaches.ttlMs, r.cache!.invalidatedBy]),
    );
    // One TTL for every cached answer (READ_CACHE_TTL_MS), 30 s unless set.
    expect(p.responseCaches.every((c) => c.ttlSeconds === 30)).toBe(true);
    // The catalog memos of services that callers outside GraphQL read too (routing, execution, copytrade).
    expect(p.memos.map((m) => m.name)).toEqual(['events', 'markets']);
    for (const m of p.memos) expect(m).toMatchObject({ invalidatedBy: CATALOG_CHANGED_TOPIC, ttlSeconds: 30 });
    expect(p.apiKeyLookup).toEqual({
      ttlSeconds: LOOKUP_TTL_MS / 1000,
      maxEntries: LOOKUP_MAX_ENTRIES,
      scope: 'process',
      invalidatedBy: API_KEY_REVOKED_TOPIC,
    });
  });
});
