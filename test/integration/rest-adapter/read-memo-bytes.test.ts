import { loadConfig } from '../../../src/config';
import { NO_BACKGROUND_TIMERS, http, startTestApp, type TestApp } from '../../support/app';

// A small byte bound, so that a few dozen distinct event pages (each up to about 160 KB) pass it.
const BOUND = 500_000;
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ...NO_BACKGROUND_TIMERS, ANSWER_CACHE_MAX_BYTES: String(BOUND) });
});
afterAll(async () => {
  await app.close();
});

describe('the answer cache is bounded by bytes', () => {
  it('many distinct large REST pages keep it under its bound; the latest is still answered from memory', async () => {
    let served = 0;
    for (let pageSize = 40; pageSize <= 100; pageSize += 1) {
      const r = await http(`${app.url}/api/events?page=1&pageSize=${pageSize}`);
      expect(r.status).toBe(200);
      served += Buffer.byteLength(r.text);
      expect(app.running.answerCache().bytes).toBeLessThanOrEqual(BOUND);
    }
    // Ten times the bound went through; the cache kept a few pages (the latest), not all 61.
    expect(served).toBeGreaterThan(10 * BOUND);
    const held = app.running.answerCache();
    expect(held.entries).toBeGreaterThanOrEqual(2);
    expect(held.entries).toBeLessThan(10);
    expect(held.bytes).toBeGreaterThan(BOUND / 2);

    // The latest page is still answered from memory: no database query.
    const queries = app.services.db.queryCount();
    const again = await http(`${app.url}/api/events?page=1&pageSize=100`, { headers: { 'if-none-match': '"x"' } });
    expect(again.status).toBe(200);
    expect(app.services.db.queryCount()).toBe(queries);
  });

  it('the public reads of /graphql are bounded by the same bytes', async () => {
    for (let pageSize = 40; pageSize <= 100; pageSize += 3) {
      const r = await http(`${app.url}/graphql`, {
        method: 'POST',
        json: { query: `{ events(page: 1, pageSize: ${pageSize}) { data { id title description } total } }` },
      });
      expect(r.status).toBe(200);
      expect(app.running.answerCache().bytes).toBeLessThanOrEqual(BOUND);
    }
    expect(app.running.answerCache().entries).toBeGreaterThanOrEqual(1);
  });

  it('one setting bounds it; unset, the two settings it replaced bound it together', () => {
    expect(loadConfig({}).readCaches.answerMaxBytes).toBe(64 * 2 ** 20);
    const former = { REST_MEMO_MAX_BYTES: '1000000', PUBLIC_READ_CACHE_MAX_BYTES: '24000' };
    expect(loadConfig(former).readCaches.answerMaxBytes).toBe(1_024_000);
    expect(loadConfig({ ...former, ANSWER_CACHE_MAX_BYTES: '2048' }).readCaches.answerMaxBytes).toBe(2048);
    expect(() => loadConfig({ ANSWER_CACHE_MAX_BYTES: '12' })).toThrow(/ANSWER_CACHE_MAX_BYTES/);
  });
});
