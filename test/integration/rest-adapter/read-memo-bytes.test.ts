import { NO_BACKGROUND_TIMERS, http, startTestApp, type TestApp } from '../../support/app';

// Small byte bounds, so that a few dozen distinct event pages (each up to about 160 KB) pass them.
const REST_BOUND = 500_000;
const PUBLIC_READ_BOUND = 400_000;
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    ...NO_BACKGROUND_TIMERS,
    REST_MEMO_MAX_BYTES: String(REST_BOUND),
    PUBLIC_READ_CACHE_MAX_BYTES: String(PUBLIC_READ_BOUND),
  });
});
afterAll(async () => {
  await app.close();
});

describe('caches of public answers are bounded by bytes', () => {
  it('many distinct large pages keep the REST memo, the public reads and the repeats under their bounds', async () => {
    let served = 0;
    for (let pageSize = 40; pageSize <= 100; pageSize += 1) {
      const r = await http(`${app.url}/api/events?page=1&pageSize=${pageSize}`);
      expect(r.status).toBe(200);
      served += Buffer.byteLength(r.text);
      const { rest, publicReads, repeats } = app.running.readCaches;
      expect(rest().bytes).toBeLessThanOrEqual(REST_BOUND);
      expect(publicReads().bytes).toBeLessThanOrEqual(PUBLIC_READ_BOUND);
      expect(repeats().bytes).toBeLessThanOrEqual(REST_BOUND + PUBLIC_READ_BOUND);
    }
    // Ten times the bound went through; the memo kept a few pages (the latest), not all 61.
    expect(served).toBeGreaterThan(10 * REST_BOUND);
    const rest = app.running.readCaches.rest();
    expect(rest.entries).toBeGreaterThanOrEqual(2);
    expect(rest.entries).toBeLessThan(10);
    expect(rest.bytes).toBeGreaterThan(REST_BOUND / 2);

    // The latest page is still answered from memory: no database query.
    const queries = app.services.db.queryCount();
    const again = await http(`${app.url}/api/events?page=1&pageSize=100`, { headers: { 'if-none-match': '"x"' } });
    expect(again.status).toBe(200);
    expect(app.services.db.queryCount()).toBe(queries);
  });

  it('the public reads of /graphql are bounded the same way', async () => {
    for (let pageSize = 40; pageSize <= 100; pageSize += 3) {
      const r = await http(`${app.url}/graphql`, {
        method: 'POST',
        json: { query: `{ events(page: 1, pageSize: ${pageSize}) { data { id title description } total } }` },
      });
      expect(r.status).toBe(200);
      expect(app.running.readCaches.publicReads().bytes).toBeLessThanOrEqual(PUBLIC_READ_BOUND);
      expect(app.running.readCaches.repeats().bytes).toBeLessThanOrEqual(REST_BOUND + PUBLIC_READ_BOUND);
    }
    expect(app.running.readCaches.publicReads().entries).toBeGreaterThanOrEqual(1);
  });
});
