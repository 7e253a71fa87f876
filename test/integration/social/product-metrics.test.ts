import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import type { ProductMetricsQuery } from '../../../schema/generated/operations';
import { http, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';
import { statementsOf } from './statements';

const ADMIN = 'metrics-admin-token';
const DAY = 86_400_000;

let app: TestApp;
let now: number;
const ago = (days: number) => new Date(now - days * DAY);

/** A filled (or unfilled) order placed `days` ago. */
const order = (userId: string, days: number, notionalMicros: bigint, mode: 'simulation' | 'live' = 'simulation') => ({
  userId,
  venue: 'venue_b' as const,
  marketId: 'venue_b:m',
  venueMarketId: 'm',
  outcome: 'yes' as const,
  side: 'buy' as const,
  orderType: 'market' as const,
  mode,
  requestedSizeMicros: 10_000_000n,
  filledSizeMicros: notionalMicros > 0n ? 10_000_000n : 0n,
  notionalMicros,
  state: notionalMicros > 0n ? ('filled' as const) : ('cancelled' as const),
  createdAt: ago(days),
});

async function seed(prefix: string): Promise<void> {
  const prisma = app.services.db.prisma;
  const id = (n: number) => `${prefix}u${n}`;
  await prisma.user.createMany({
    data: [
      { id: id(1), createdAt: ago(1) },
      { id: id(2), createdAt: ago(10) },
      { id: id(3), createdAt: ago(40) },
      { id: id(4), createdAt: ago(2) },
      { id: id(5), createdAt: ago(50) },
    ],
  });
  const hex = (n: number) => `0x${prefix.padEnd(4, '0')}${String(n).padStart(36, '0')}`;
  // Linked wallets: u1 and u3 (u4 only has a provisioned one, which is not a link).
  await prisma.wallet.createMany({
    data: [
      { userId: id(1), chain: 'polygon', address: hex(1), kind: 'imported' },
      { userId: id(3), chain: 'polygon', address: hex(3), kind: 'imported' },
      { userId: id(4), chain: 'polygon', address: hex(4), kind: 'provisioned', provisionSlot: `${id(4)}:polygon` },
    ],
  });
  // Funded: u2 (a credited deposit).
  await app.services.get(LedgerService).post(prisma, {
    userId: id(2),
    kind: 'deposit',
    available: 25_000_000n,
    held: 0n,
    reference: `funding:${prefix}`,
    idempotencyKey: `metrics-${prefix}-deposit`,
  });
  await prisma.order.createMany({
    data: [
      order(id(1), 1, 10_000_000n), // traded, this week
      order(id(2), 20, 5_000_000n, 'live'), // traded, this month, live
      order(id(5), 45, 2_000_000n), // traded, long ago
      order(id(4), 2, 0n), // placed but never filled: active, not a trade
    ],
  });
  await prisma.comment.createMany({
    data: [
      { id: `${prefix}c1`, eventId: 'e', authorId: id(5), body: 'x', createdAt: ago(3) },
      { id: `${prefix}c2`, eventId: 'e', authorId: `${prefix}anon`, body: 'y', createdAt: ago(12) },
    ],
  });
  await prisma.follow.createMany({
    data: [
      { userId: id(3), venue: 'venue_a', traderId: `0x${'1'.repeat(40)}`, createdAt: ago(6) },
      { userId: id(4), venue: 'venue_a', traderId: `0x${'2'.repeat(40)}`, createdAt: ago(31) },
    ],
  });
}

beforeAll(async () => {
  app = await startTestApp({ ADMIN_TOKEN: ADMIN });
  now = Date.now();
  await seed('a');
});
afterAll(async () => {
  await app.close();
});

const get = (headers: Record<string, string>) => http(`${app.url}/api/product/metrics`, { headers });
/** The operator's bearer with the admin token (both needed). */
const admin = async () => ({ ...(await app.bearer('operator')), 'x-admin-token': ADMIN });

describe('GET /api/product/metrics', () => {
  it('needs a bearer token and the admin token (401 otherwise)', async () => {
    expect((await get({})).status).toBe(401);
    expect((await get(await app.bearer('operator'))).status).toBe(401);
    expect((await get({ ...(await app.bearer('operator')), 'x-admin-token': 'wrong' })).status).toBe(401);
    expect((await get({ 'x-admin-token': ADMIN })).status).toBe(401);
    expect((await get(await admin())).status).toBe(200);
  });

  it('counts users, active users, trades, volume and the funnel (hand-computed)', async () => {
    const r = await get(await admin());
    expect(r.body).toEqual({
      generatedAt: expect.any(String),
      users: { total: 5, last7d: 2, last30d: 3 },
      // 7 d: u1 (order), u4 (unfilled order), u5 (comment), u3 (follow); 30 d adds u2 (order) and a commenter who never
      // signed up.
      activeUsers: { last7d: 4, last30d: 6 },
      trades: { total: 3, last7d: 1, last30d: 2 },
      volume: { total: 17, last7d: 10, last30d: 15, live: 5 },
      funnel: {
        steps: [
          { step: 'signed_up', users: 5, fromPrevious: null, fromSignUp: 1 },
          { step: 'wallet_linked_or_funded', users: 3, fromPrevious: 0.6, fromSignUp: 0.6 },
          // u1 (linked) and u2 (funded) traded; u5 traded without either and is not counted here.
          { step: 'first_trade', users: 2, fromPrevious: 0.6667, fromSignUp: 0.4 },
        ],
        walletLinked: 2,
        funded: 1,
        traded: 3,
      },
    });
  });

  it('answers GraphQL with the same figures', async () => {
    const r = await gql(
      app,
      '{ productMetrics { users { total } funnel { steps { step users } } } }',
      undefined,
      await admin(),
    );
    expect(r.body).toEqual({
      data: {
        productMetrics: {
          users: { total: 5 },
          funnel: {
            steps: [
              { step: 'signed_up', users: 5 },
              { step: 'wallet_linked_or_funded', users: 3 },
              { step: 'first_trade', users: 2 },
            ],
          },
        },
      },
    });
  });

  it('runs the same few aggregate statements however many users there are', async () => {
    const count = () => statementsOf(app, async () => expect((await get(await admin())).status).toBe(200));
    const small = await count();
    for (let i = 0; i < 20; i += 1) await seed(`b${String(i).padStart(2, '0')}`);
    const large = await count();
    expect(large).toBe(small);
    expect(small).toBeLessThanOrEqual(4);
    expect(((await get(await admin())).body as ProductMetricsQuery['productMetrics']).users.total).toBe(105);
  });
});
