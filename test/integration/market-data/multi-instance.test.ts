import { UsageRecorder } from '../../../src/modules/usage/usage.recorder';
import { startTestApp, type TestApp } from '../../support/app';
import { issueKey, md, rateHeaders } from './md-helpers';

// Two instances of one deployment (same database, same Redis prefix): rate
// limits and revocations must hold across them. Only meaningful with Redis;
// the embedded mode is single-process by design (access.test.ts covers it).
(process.env.REDIS_URL ? describe : describe.skip)('two instances sharing Redis and the database', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    // What is tested is the shared quota and revocation, so a Redis command is given time: with the
    // default 1 s, a test process stalled for a second under a loaded suite timed a command out, and
    // the instance fell back as designed (an in-process count; a revocation refused with 503), which
    // the outage tests cover.
    const env = { REDIS_COMMAND_TIMEOUT_MS: '10000' };
    a = await startTestApp(env);
    b = await startTestApp(env, {}, { shareWith: a });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('counts a free key against one quota: the 61st request of the minute is refused on either instance', async () => {
    const { key } = await issueKey(a, { plan: 'free' });
    for (let i = 1; i <= 60; i += 1) {
      const r = await md(i % 2 === 0 ? a : b, '/api/events/categories', key);
      expect(r.status).toBe(200);
      expect(rateHeaders(r.headers).remaining).toBe(60 - i);
    }
    for (const instance of [a, b]) {
      const over = await md(instance, '/api/events/categories', key);
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({ error: 'rate_limited' });
      expect(rateHeaders(over.headers)).toMatchObject({ limit: 60, remaining: 0 });
    }
  });

  it('revokes on one instance and refuses the key at once on the other, which had it cached', async () => {
    const admin = await issueKey(a);
    const victim = await issueKey(a, { owner: admin.owner });
    // b authenticates the key once: its lookup is now cached there.
    expect((await md(b, '/api/events/categories', victim.key)).status).toBe(200);
    expect((await md(b, '/api/events/categories', victim.key)).status).toBe(200);
    const revoked = await md(a, `/api/keys/${victim.id}`, admin.key, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    const refused = await md(b, '/api/events/categories', victim.key);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'unauthorized' });
    rateHeaders(refused.headers);
    expect((await md(a, '/api/events/categories', victim.key)).status).toBe(401);
  });

  it("adds both instances' usage up once flushed", async () => {
    const { key } = await issueKey(a);
    await md(a, '/api/events/categories', key);
    await md(b, '/api/events/categories', key);
    await md(b, '/api/events/categories', key);
    await Promise.all([a.services.get(UsageRecorder).flush(), b.services.get(UsageRecorder).flush()]);
    const r = await md(a, '/api/users/me/usage?days=1', key);
    expect(r.body).toMatchObject({
      total_requests: 4,
      by_endpoint: { '/api/events/categories': 3, '/api/users/me/usage': 1 },
    });
  });
});
