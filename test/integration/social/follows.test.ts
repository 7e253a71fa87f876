import type { FollowsQuery } from '../../../schema/generated/operations';
import { http, startTestApp, type TestApp } from '../../support/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const follower = () => app.as('follower-1');
const WALLET = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';

describe('follows', () => {
  it('follows (201, idempotent, wallets normalised), lists, and unfollows idempotently', async () => {
    const first = await follower().post('/api/follows', { venue: 'venue_a', traderId: WALLET });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ venue: 'venue_a', traderId: WALLET.toLowerCase() });
    const again = await follower().post('/api/follows', { venue: 'venue_a', traderId: WALLET.toLowerCase() });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    await follower().post('/api/follows', { venue: 'venue_b', traderId: 'kalshi_whale' });

    const list = (await follower().get('/api/follows')).body as FollowsQuery['follows'];
    expect(list.total).toBe(2);
    expect(list.data.map((f) => f.traderId).sort()).toEqual([WALLET.toLowerCase(), 'kalshi_whale'].sort());

    const del = await follower().delete(`/api/follows/venue_a/${WALLET}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ venue: 'venue_a', traderId: WALLET.toLowerCase(), removed: true });
    const delAgain = await follower().delete(`/api/follows/venue_a/${WALLET}`);
    expect(delAgain.body).toMatchObject({ removed: false });
    expect(((await follower().get('/api/follows')).body as FollowsQuery['follows']).total).toBe(1);
  });

  it.each([
    [{ venue: 'venue_c', traderId: WALLET }, /^venue: /],
    [{ venue: 'venue_a', traderId: '0x123' }, /^traderId: /],
    [{ venue: 'venue_b', traderId: 'a b' }, /^traderId: /],
    [{ venue: 'venue_a' }, /^traderId: /],
  ])('400 naming the field (case %#)', async (json, message) => {
    const r = await follower().post('/api/follows', json);
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
    await follower().post('/api/follows', { venue: 'venue_b', traderId: 'kept_trader' });
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
    const list = (await app.as('follower-2').get('/api/follows')).body as FollowsQuery['follows'];
    expect(list.total).toBe(0);
  });
});
