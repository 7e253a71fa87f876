import { http, startTestApp, type TestApp } from '../../support/app';
import { openSse, type SseReader } from '../../support/sse';
import { waitFor } from '../../support/wait';

// Behind a trusted local proxy, X-Forwarded-For names the client: one test process is many IPv6
// clients. Small caps so that a few requests reach them.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    TRUST_PROXY: 'loopback',
    STREAMS_PER_ADDRESS: '2',
    SSE_RESERVATIONS_PER_ADDRESS: '2',
    DISCOVER_RATE_LIMIT: '2',
  });
});
afterAll(async () => {
  await app.close();
});

const from = (address: string) => ({ 'x-forwarded-for': address });
const stream = (address: string) => openSse(`${app.url}/stream/trades`, { headers: from(address) });

describe('per-client caps count an IPv6 client by its /64', () => {
  it('two addresses of one /64 share the per-address stream cap; another /64 does not', async () => {
    const open: SseReader[] = [];
    try {
      for (const address of ['2001:db8:1:2::1', '2001:0db8:0001:0002:ffff:0:0:abcd']) {
        const s = await stream(address);
        open.push(s);
        expect(s.status).toBe(200);
      }
      expect(app.running.slots.count('2001:db8:1:2::/64')).toBe(2);
      const third = await stream('2001:db8:1:2:aaaa::9');
      open.push(third);
      expect(third.status).toBe(429);
      const elsewhere = await stream('2001:db8:1:3::1');
      open.push(elsewhere);
      expect(elsewhere.status).toBe(200);
    } finally {
      open.forEach((s) => s.close());
    }
    await waitFor(() => app.running.slots.count() === 0, 'every stream released', 20_000);
  });

  it('an IPv4-mapped IPv6 address is its IPv4 client', async () => {
    const open: SseReader[] = [];
    try {
      open.push(await stream('203.0.113.5'), await stream('::ffff:203.0.113.5'));
      expect(open.map((s) => s.status)).toEqual([200, 200]);
      const third = await stream('203.0.113.5');
      open.push(third);
      expect(third.status).toBe(429);
      const other = await stream('::ffff:203.0.113.6');
      open.push(other);
      expect(other.status).toBe(200);
    } finally {
      open.forEach((s) => s.close());
    }
    await waitFor(() => app.running.slots.count() === 0, 'every stream released', 20_000);
  });

  it('the per-client rate limit (discover) and the reservation cap count the /64 too', async () => {
    const discover = (address: string) => http(`${app.url}/api/events/discover?pageSize=1`, { headers: from(address) });
    expect((await discover('2001:db8:5:6::1')).status).toBe(200);
    expect((await discover('2001:db8:5:6::2')).status).toBe(200);
    expect((await discover('2001:db8:5:6:1:2:3:4')).status).toBe(429);
    expect((await discover('2001:db8:5:7::1')).status).toBe(200);

    const reserve = (address: string) => http(`${app.url}/graphql/stream`, { method: 'PUT', headers: from(address) });
    expect((await reserve('2001:db8:9:9::1')).status).toBe(201);
    expect((await reserve('2001:db8:9:9::2')).status).toBe(201);
    expect((await reserve('2001:db8:9:9::3')).status).toBe(429);
    expect((await reserve('2001:db8:9:a::1')).status).toBe(201);
  });
});
