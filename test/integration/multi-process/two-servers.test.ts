import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { freePort, startServerProcess, type ServerProcess } from '../../support/server-process';
import { openSse } from '../../support/sse';

// Several API processes share one PostgreSQL and one Redis: this needs both
// (CI runs the suite a second time with DATABASE_URL and REDIS_URL set).
const shared = process.env.DATABASE_URL && process.env.REDIS_URL;
const describeShared = shared ? describe : describe.skip;

describeShared('two server processes over one PostgreSQL and Redis', () => {
  const schema = `mp_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const prefix = `mp:${randomUUID()}:`;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set('schema', schema);
    const env = {
      DATABASE_URL: url.toString(),
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_KEY_PREFIX: prefix,
      DISCOVER_RATE_LIMIT: '10',
    };
    // One seeds the empty database first; the second finds it seeded.
    a = await startServerProcess({ ...env, SIM_TRADE_RATE: '20' }, await freePort());
    b = await startServerProcess({ ...env, SIM_TRADE_RATE: '0' }, await freePort());
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    const pg = new Client({ connectionString: process.env.DATABASE_URL });
    await pg.connect();
    await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pg.end();
  });

  it('a trade ingested by one process reaches an SSE subscriber on the other', async () => {
    const sse = await openSse(`${b.url}/stream/trades`);
    expect(sse.status).toBe(200);
    const [msg] = await sse.take(1, 20_000);
    sse.close();
    expect(msg.event).toBe('trade');
    expect(JSON.parse(msg.data)).toMatchObject({ id: msg.id, venue: expect.stringMatching(/^venue_[ab]$/) });
  });

  it('a shared rate limit counts requests on both processes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      for (const s of [a, b]) statuses.push((await fetch(`${s.url}/api/events/discover?pageSize=1`)).status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
  });

  it('both processes serve the same events', async () => {
    const [ra, rb] = await Promise.all([a, b].map(async (s) => (await fetch(`${s.url}/api/events?pageSize=5`)).json()));
    expect(ra).toEqual(rb);
  });
});
