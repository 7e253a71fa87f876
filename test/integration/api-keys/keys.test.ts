import { ApiKeysService } from '../../../src/modules/api-keys/api-keys.service';
import { bearer, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';
import { itOnPostgres } from '../../support/modes';
import { issueKey, md, rateHeaders } from '../market-data/md-helpers';

const PER_OWNER = 3;

/** Makes the instance deaf to revocations announced on the pub/sub (as if the message were lost). */
function loseRevocationMessages(app: TestApp): void {
  jest.spyOn(app.services.get(ApiKeysService), 'forget').mockImplementation(() => undefined);
}

const create = (app: TestApp, key: string, json: unknown) => md(app, '/api/keys', key, { method: 'POST', json });
const CREATE = 'mutation Create($scopes: [ApiScope!]!) { createApiKey(name: "gql", scopes: $scopes) { id scopes } }';

describe('API keys: limits on creating keys', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ API_KEYS_PER_OWNER: String(PER_OWNER) });
  });
  afterAll(async () => {
    await app.close();
  });

  it(`holds an owner to ${PER_OWNER} active keys: 409 beyond, on every way of creating one`, async () => {
    const admin = await issueKey(app);
    for (let i = 1; i < PER_OWNER; i += 1) {
      expect((await create(app, admin.key, { name: `k${i}`, scopes: ['read'] })).status).toBe(201);
    }
    const over = await create(app, admin.key, { name: 'one too many', scopes: ['read'] });
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ error: 'conflict', message: expect.stringContaining(`at most ${PER_OWNER}`) });
    rateHeaders(over.headers);

    const viaGraphql = await gql(app, CREATE, { scopes: ['read'] }, bearer(admin.key));
    expect(viaGraphql.body.errors?.[0]).toMatchObject({ extensions: { code: 'conflict' } });

    const issued = await gql(
      app,
      `mutation { issueApiKey(owner: "${admin.owner}", name: "bootstrap", scopes: [read], plan: pro) { id } }`,
      {},
      { 'x-admin-token': app.config.tokens.admin },
    );
    expect(issued.body.errors?.[0]).toMatchObject({ extensions: { code: 'conflict' } });
    await expect(
      app.services.get(ApiKeysService).create({ owner: admin.owner, name: 'x', scopes: ['read'], plan: 'free' }),
    ).rejects.toMatchObject({ code: 'conflict' });

    // Another owner is not affected; a revoked key frees its place.
    expect((await create(app, (await issueKey(app)).key, { name: 'other', scopes: ['read'] })).status).toBe(201);
    const list = (await md(app, '/api/keys', admin.key)).body as { id: string }[];
    expect(list).toHaveLength(PER_OWNER);
    const victim = list.find((k) => k.id !== admin.id)!;
    expect((await md(app, `/api/keys/${victim.id}`, admin.key, { method: 'DELETE' })).status).toBe(200);
    expect((await create(app, admin.key, { name: 'replacement', scopes: ['read'] })).status).toBe(201);
    expect((await create(app, admin.key, { name: 'again too many', scopes: ['read'] })).status).toBe(409);
  });

  // The count and the insert run under a per-owner lock in one transaction: PGlite runs them one at a time, so the
  // race is PostgreSQL's (the cap one creation after another is the test above).
  itOnPostgres('lets concurrent creations fill the last place only once', async () => {
    const admin = await issueKey(app);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => create(app, admin.key, { name: `race ${i}`, scopes: ['read'] })),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 409, 409, 409, 409]);
    expect((await app.services.get(ApiKeysService).list(admin.owner)).length).toBe(PER_OWNER);
  });

  it('creates keys only with scopes the creating key holds: 403 otherwise', async () => {
    const writeOnly = await issueKey(app, { scopes: ['write'] });
    const refused = await create(app, writeOnly.key, { name: 'escalate', scopes: ['read', 'write'] });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'forbidden', message: expect.stringMatching(/lacks the read scope/) });
    rateHeaders(refused.headers);
    const viaGraphql = await gql(app, CREATE, { scopes: ['read'] }, bearer(writeOnly.key));
    expect(viaGraphql.body.errors?.[0]).toMatchObject({ extensions: { code: 'forbidden' } });
    expect(await app.services.get(ApiKeysService).list(writeOnly.owner)).toHaveLength(1);

    const same = await create(app, writeOnly.key, { name: 'same scopes', scopes: ['write'] });
    expect(same.status).toBe(201);
    expect(same.body).toMatchObject({ scopes: ['write'] });
    const full = await issueKey(app, { scopes: ['read', 'write'] });
    const narrower = await create(app, full.key, { name: 'reader', scopes: ['read'] });
    expect(narrower.status).toBe(201);
    expect(narrower.body).toMatchObject({ scopes: ['read'] });
  });
});

describe('API keys: revocation has no cache window', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await app.close();
  });

  it('refuses a revoked key at the very next request, its lookup cached and no message dropping it', async () => {
    const admin = await issueKey(app);
    const victim = await issueKey(app, { owner: admin.owner });
    expect((await md(app, '/api/events/categories', victim.key)).status).toBe(200);
    expect((await md(app, '/api/events/categories', victim.key)).status).toBe(200);
    loseRevocationMessages(app);
    expect((await md(app, `/api/keys/${victim.id}`, admin.key, { method: 'DELETE' })).status).toBe(200);
    const refused = await md(app, '/api/events/categories', victim.key);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'unauthorized' });
    const viaGraphql = await gql(app, 'query { apiKeys { id } }', {}, bearer(victim.key));
    expect(viaGraphql.body.errors?.[0]).toMatchObject({ extensions: { code: 'unauthorized' } });
    // The admin's own key, cached too, is still served.
    expect((await md(app, '/api/keys', admin.key)).status).toBe(200);
  });
});

// Two instances of one deployment: the revocation set lives in the shared Redis. Without Redis the
// infra is in-process and a second instance could not share it (the case above covers that mode).
(process.env.REDIS_URL ? describe : describe.skip)('API keys: revocation across instances sharing Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({}, {}, { shareWith: a });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await b.close();
    await a.close();
  });

  it('revokes on one instance: the next request on the other (key cached, message missed) is 401', async () => {
    const admin = await issueKey(a);
    const victim = await issueKey(a, { owner: admin.owner });
    expect((await md(b, '/api/events/categories', victim.key)).status).toBe(200);
    expect((await md(b, '/api/events/categories', victim.key)).status).toBe(200);
    loseRevocationMessages(b);
    expect((await md(a, `/api/keys/${victim.id}`, admin.key, { method: 'DELETE' })).status).toBe(200);
    const refused = await md(b, '/api/events/categories', victim.key);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'unauthorized' });
    expect((await md(a, '/api/events/categories', victim.key)).status).toBe(401);
    expect((await md(b, '/api/events/categories', admin.key)).status).toBe(200);
  });

  it('holds the per-owner cap across instances', async () => {
    const admin = await issueKey(a);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => create(i % 2 === 0 ? a : b, admin.key, { name: `k${i}`, scopes: ['read'] })),
    );
    // Default cap 10: the admin's key and 9 more.
    expect(answers.filter((r) => r.status === 201)).toHaveLength(9);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(3);
  });
});
