import { http, startTestApp, type TestApp } from '../../support/app';

let app: TestApp;
let token: string;
beforeAll(async () => {
  app = await startTestApp();
  token = await app.token('follower-1');
});
afterAll(async () => {
  await app.close();
});

const auth = () => ({ authorization: `Bearer ${token}` });
const WALLET = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';

describe('follows', () => {
  it('follows (201, idempotent, wallets normalised), lists, and unfollows idempotently', async () => {
    const first = await http(`${app.url}/api/follows`, {
      method: 'POST',
      headers: auth(),
      json: { venue: 'venue_a', traderId: WALLET },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ venue: 'venue_a', traderId: WALLET.toLowerCase() });
    const again = await http(`${app.url}/api/follows`, {
      method: 'POST',
      headers: auth(),
      json: { venue: 'venue_a', traderId: WALLET.toLowerCase() },
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    await http(`${app.url}/api/follows`, {
      method: 'POST',
      headers: auth(),
      json: { venue: 'venue_b', traderId: 'kalshi_whale' },
    });

    const list = (await http(`${app.url}/api/follows`, { headers: auth() })).body as {
      data: { traderId: string }[];
      total: number;
    };
    expect(list.total).toBe(2);
    expect(list.data.map((f) => f.traderId).sort()).toEqual([WALLET.toLowerCase(), 'kalshi_whale'].sort());

    const del = await http(`${app.url}/api/follows/venue_a/${WALLET}`, { method: 'DELETE', headers: auth() });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ venue: 'venue_a', traderId: WALLET.toLowerCase(), removed: true });
    const delAgain = await http(`${app.url}/api/follows/venue_a/${WALLET}`, { method: 'DELETE', headers: auth() });
    expect(delAgain.body).toMatchObject({ removed: false });
    expect(((await http(`${app.url}/api/follows`, { headers: auth() })).body as { total: number }).total).toBe(1);
  });

  it.each([
    [{ venue: 'venue_c', traderId: WALLET }, /^venue: /],
    [{ venue: 'venue_a', traderId: '0x123' }, /^traderId: /],
    [{ venue: 'venue_b', traderId: 'a b' }, /^traderId: /],
    [{ venue: 'venue_a' }, /^traderId: /],
  ])('400 naming the field (case %#)', async (json, message) => {
    const r = await http(`${app.url}/api/follows`, { method: 'POST', headers: auth(), json });
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(message);
  });

  it('401 without a bearer', async () => {
    expect((await http(`${app.url}/api/follows`)).status).toBe(401);
    expect(
      (await http(`${app.url}/api/follows`, { method: 'POST', json: { venue: 'venue_a', traderId: WALLET } })).status,
    ).toBe(401);
  });

  it('401 on DELETE /api/follows/{venue}/{traderId} without a valid bearer; the follow stays', async () => {
    await http(`${app.url}/api/follows`, {
      method: 'POST',
      headers: auth(),
      json: { venue: 'venue_b', traderId: 'kept_trader' },
    });
    for (const headers of [{}, { authorization: 'Bearer not-a-jwt' }] as Record<string, string>[]) {
      const r = await http(`${app.url}/api/follows/venue_b/kept_trader`, { method: 'DELETE', headers });
      expect([r.status, (r.body as { error: string }).error]).toEqual([401, 'unauthorized']);
    }
    const follows = await app.services.db.prisma.follow.count({
      where: { userId: 'follower-1', venue: 'venue_b', traderId: 'kept_trader' },
    });
    expect(follows).toBe(1);
  });

  it('keeps the follows of each user apart', async () => {
    const other = await app.token('follower-2');
    const list = (await http(`${app.url}/api/follows`, { headers: { authorization: `Bearer ${other}` } })).body as {
      total: number;
    };
    expect(list.total).toBe(0);
  });
});
