import type {
  OrdersQuery,
  PortfolioAnalyticsQuery,
  PortfolioHistoryQuery,
  PortfolioOverviewQuery,
  PortfolioPositionsQuery,
  PositionQuery,
  PositionsByMarketQuery,
  PositionsQuery,
} from '../../../schema/generated/operations';
import { http, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';
import { pinnedWorld } from '../../support/pinned-world';
import { fund } from '../../support/funding';
import { at, insertOrder, insertPosition, pinnedMarkets, type MarketRef } from './portfolio-fixtures';

/**
 * The portfolio routes over rows written as execution writes them, in the
 * pinned world (fixed books at a fixed clock). YES mids at the pinned clock:
 * A1 (0.542 / 0.55) 0.546, B1 (0.51 / 0.53) 0.52, C1 (0.71 / 0.715) 0.7125.
 *
 * Alice (realized PnL carries each buy's fee, as execution books it):
 *   P1 A1 YES open   100 @ cost 40.00, fees 0.80, realized −0.80 → value 54.60, unrealized +14.60
 *   P2 B1 NO  open    50 @ cost 22.50, fees 0.50, realized −0.50 → NO 0.48 → 24.00, +1.50
 *   P3 C1 YES open    10 @ cost  6.00, fees 0.12, realized −0.12 → 7.125, +1.125
 *   P4 B2 YES closed  realized −1.20, fees 0.10 (a politics loss)
 *   P5 C1 NO  closed  realized +4.73, fees 0.27 (a crypto win)
 *   P6 A2 YES pending (a live order not yet filled)
 */
let app: TestApp;
let mk: ReturnType<typeof pinnedMarkets>;
const ids: Record<string, string> = {};

type Positions = PositionsQuery['positions'];
type History = PortfolioHistoryQuery['portfolio']['history'];
type Orders = OrdersQuery['orders'];
type Analytics = PortfolioAnalyticsQuery['portfolio']['analytics'];
type Status = 'open' | 'closed' | 'pending';
const fill = (price: string, size: string, fee: string, iso: string) => ({ price, size, fee, at: at(iso) });

async function seedAlice(): Promise<void> {
  const u = 'pf-alice';
  const prisma = app.services.db.prisma;
  const pos = (
    market: MarketRef,
    outcome: 'yes' | 'no',
    status: Status,
    size: string,
    costBasis: string,
    realizedPnl: string,
    fees: string,
    updated: string,
  ) =>
    insertPosition(prisma, {
      userId: u,
      market,
      outcome,
      status,
      size,
      costBasis,
      realizedPnl,
      fees,
      updatedAt: at(updated),
    });
  ids.P1 = await pos(mk.A1, 'yes', 'open', '100', '40', '-0.8', '0.8', '2026-11-15T11:00:00Z');
  ids.P2 = await pos(mk.B1, 'no', 'open', '50', '22.5', '-0.5', '0.5', '2026-11-14T11:00:00Z');
  ids.P3 = await pos(mk.C1, 'yes', 'open', '10', '6', '-0.12', '0.12', '2026-11-15T09:00:00Z');
  ids.P4 = await pos(mk.B2, 'yes', 'closed', '0', '0', '-1.2', '0.1', '2026-11-13T09:00:00Z');
  ids.P5 = await pos(mk.C1, 'no', 'closed', '0', '0', '4.73', '0.27', '2026-11-12T09:00:00Z');
  ids.P6 = await pos(mk.A2, 'yes', 'pending', '0', '0', '0', '0', '2026-11-15T10:00:00Z');
  const buy = { userId: u, side: 'buy' as const };
  ids.O1 = await insertOrder(prisma, {
    ...buy,
    market: mk.A1,
    outcome: 'yes',
    state: 'filled',
    requested: '100',
    positionId: ids.P1,
    createdAt: at('2026-11-14T10:00:00Z'),
    fills: [fill('0.39', '50', '0.4', '2026-11-14T10:00:00Z'), fill('0.41', '50', '0.4', '2026-11-14T10:00:01Z')],
  });
  // Linked to P2 by its market outcome only (no positionId).
  ids.O2 = await insertOrder(prisma, {
    ...buy,
    market: mk.B1,
    outcome: 'no',
    state: 'filled',
    orderType: 'limit',
    mode: 'live',
    limitPrice: '0.46',
    requested: '50',
    createdAt: at('2026-11-14T11:00:00Z'),
    fills: [fill('0.45', '50', '0.5', '2026-11-14T11:00:00Z')],
  });
  ids.O3 = await insertOrder(prisma, {
    ...buy,
    market: mk.C1,
    outcome: 'yes',
    state: 'filled',
    requested: '10',
    positionId: ids.P3,
    createdAt: at('2026-11-15T09:00:00Z'),
    fills: [fill('0.6', '10', '0.12', '2026-11-15T09:00:00Z')],
  });
  ids.O4 = await insertOrder(prisma, {
    ...buy,
    market: mk.A2,
    outcome: 'yes',
    state: 'submitted',
    mode: 'live',
    requested: '20',
    positionId: ids.P6,
    createdAt: at('2026-11-15T10:00:00Z'),
  });
  ids.O5 = await insertOrder(prisma, {
    ...buy,
    market: mk.A1,
    outcome: 'yes',
    state: 'cancelled',
    orderType: 'limit',
    limitPrice: '0.3',
    requested: '10',
    failureReason: 'nothing fillable under the limit',
    createdAt: at('2026-11-15T11:00:00Z'),
  });
  ids.O6 = await insertOrder(prisma, {
    userId: u,
    market: mk.B2,
    outcome: 'yes',
    side: 'sell',
    state: 'rejected',
    requested: '5',
    positionId: ids.P4,
    failureReason: 'insufficient position',
    createdAt: at('2026-11-13T08:00:00Z'),
  });
  await fund(app, u, '1000');
}

/**
 * Others this week (from Monday 2026-11-09 UTC): bob trades 100.00, dave 68.50 (alice's volume), carol only last
 * week.
 */
async function seedOthers(): Promise<void> {
  const trade = (userId: string, size: string, iso: string) =>
    insertOrder(app.services.db.prisma, {
      userId,
      market: mk.A1,
      outcome: 'yes',
      side: 'buy',
      state: 'filled',
      requested: size,
      createdAt: at(iso),
      fills: [fill('0.5', size, '0', iso)],
    });
  await trade('pf-bob', '200', '2026-11-10T00:00:00Z');
  await trade('pf-dave', '137', '2026-11-09T00:00:00Z');
  await trade('pf-carol', '1000', '2026-11-08T23:59:59Z');
}

beforeAll(async () => {
  const p = pinnedWorld();
  app = await startTestApp({}, {}, p);
  mk = pinnedMarkets(p.world);
  // The books the hand-computed figures assume.
  const mid = async (m: MarketRef) => {
    const b = await p.world.clients[m.venue].getOrderBook(m.marketId, 1);
    return [b.bids[0].price, b.asks[0].price];
  };
  expect(await mid(mk.A1)).toEqual([0.542, 0.55]);
  expect(await mid(mk.B1)).toEqual([0.51, 0.53]);
  expect(await mid(mk.C1)).toEqual([0.71, 0.715]);
  await seedAlice();
  await seedOthers();
});
afterAll(async () => {
  await app.close();
});

const alice = (path: string) => app.as('pf-alice').get(path);

describe('authentication', () => {
  it.each([
    '/api/portfolio/overview',
    '/api/portfolio',
    '/api/portfolio/summary',
    '/api/portfolio/history',
    '/api/portfolio/analytics',
    '/api/positions',
    '/api/positions/some-id',
    '/api/positions/by-market/venue_a/some-market',
    '/api/orders',
  ])('GET %s is 401 without a bearer token', async (path) => {
    const r = await http(`${app.url}${path}`);
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ error: 'unauthorized' });
  });

  it('GraphQL portfolio fields need a user too', async () => {
    const r = await gql(app, '{ portfolio { summary { realizedPnl } } }');
    expect(r.body.errors![0].extensions.code).toBe('unauthorized');
  });

  it('GraphQL callers get the same bounds (400 naming the field)', async () => {
    const headers = await app.bearer('pf-alice');
    for (const query of [
      '{ positions(limit: 201) { total } }',
      '{ orders(offset: -1) { total } }',
      '{ portfolio { history(limit: 0) { total } } }',
    ]) {
      const error = (await gql(app, query, {}, headers)).body.errors![0];
      expect(error.extensions.code).toBe('bad_request');
      expect(error.message).toMatch(/^(limit|offset): must be an integer/);
    }
  });
});

describe('GET /api/portfolio', () => {
  it('lists the open positions, newest change first, marked at the venues’ mids', async () => {
    const r = await alice('/api/portfolio');
    expect(r.status).toBe(200);
    const body = r.body as PortfolioPositionsQuery['portfolio']['positions'];
    expect(body.data.map((p) => p.id)).toEqual([ids.P1, ids.P3, ids.P2]);
    expect(body).toMatchObject({
      total: 3,
      costBasis: 68.5,
      marketValue: 85.725,
      unrealizedPnl: 17.225,
      unmarkedPositions: 0,
    });
    const [p1, p3, p2] = body.data;
    expect(p1).toMatchObject({
      source: 'service',
      venue: 'venue_a',
      marketId: mk.A1.marketId,
      outcome: 'yes',
      status: 'open',
      size: 100,
      avgPrice: 0.4,
      costBasis: 40,
    });
    expect(p1.mark).toMatchObject({ price: 0.546, yesPrice: 0.546, source: 'live', reason: null });
    expect([p1.marketValue, p1.unrealizedPnl]).toEqual([54.6, 14.6]);
    expect(p1.market).toMatchObject({ id: `venue_a:${mk.A1.marketId}`, event: { category: 'politics' } });
    expect(p2.mark).toMatchObject({ price: 0.48, yesPrice: 0.52, source: 'live' });
    expect([p2.avgPrice, p2.marketValue, p2.unrealizedPnl]).toEqual([0.45, 24, 1.5]);
    expect([p3.marketValue, p3.unrealizedPnl]).toEqual([7.125, 1.125]);
    expect(body.markStatus).toEqual([
      { venue: 'venue_a', live: true, markets: 2, lastKnown: 0, unmarked: 0, reason: null },
      { venue: 'venue_b', live: true, markets: 1, lastKnown: 0, unmarked: 0, reason: null },
    ]);
  });

  it('is empty for a user without positions', async () => {
    const r = await app.as('pf-nobody').get('/api/portfolio');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ data: [], total: 0, marketValue: 0, unrealizedPnl: 0, markStatus: [] });
  });
});

describe('GET /api/portfolio/summary', () => {
  it('totals PnL and fees and splits exposure by venue and category', async () => {
    const r = await alice('/api/portfolio/summary');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      currency: 'USD',
      realizedPnl: 2.11, // −0.80 − 0.50 − 0.12 − 1.20 + 4.73
      unrealizedPnl: 17.225, // 14.60 + 1.50 + 1.125
      totalPnl: 19.335,
      fees: 1.79, // 0.80 + 0.50 + 0.12 + 0.10 + 0.27
      costBasis: 68.5,
      marketValue: 85.725,
      openPositions: 3,
      closedPositions: 2,
      unmarkedPositions: 0,
      exposureByVenue: [
        { key: 'venue_a', positions: 2, costBasis: 46, marketValue: 61.725, unrealizedPnl: 15.725, share: 0.720035 },
        { key: 'venue_b', positions: 1, costBasis: 22.5, marketValue: 24, unrealizedPnl: 1.5, share: 0.279965 },
      ],
      exposureByCategory: [
        { key: 'politics', positions: 2, costBasis: 62.5, marketValue: 78.6, unrealizedPnl: 16.1, share: 0.916885 },
        { key: 'crypto', positions: 1, costBasis: 6, marketValue: 7.125, unrealizedPnl: 1.125, share: 0.083115 },
      ],
      bySource: [
        {
          source: 'service',
          positions: 3,
          costBasis: 68.5,
          marketValue: 85.725,
          realizedPnl: 2.11,
          unrealizedPnl: 17.225,
          fees: 1.79,
        },
      ],
    });
  });
});

describe('GET /api/portfolio/analytics', () => {
  it('gives win rates and exposure per category and the weekly volume rank', async () => {
    const r = await alice('/api/portfolio/analytics');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      categories: [
        {
          category: 'politics',
          closedPositions: 1,
          wins: 0,
          losses: 1,
          winRate: 0,
          realizedPnl: -2.5,
          openPositions: 2,
          exposure: 78.6,
          exposureShare: 0.916885,
        },
        {
          category: 'crypto',
          closedPositions: 1,
          wins: 1,
          losses: 0,
          winRate: 1,
          realizedPnl: 4.61,
          openPositions: 1,
          exposure: 7.125,
          exposureShare: 0.083115,
        },
      ],
      totalExposure: 85.725,
      // Volume this week: 19.50 + 20.50 + 22.50 + 6.00; bob 100.00 is ahead, dave ties at 68.50, carol traded last
      // week.
      weeklyRank: {
        weekStart: '2026-11-09T00:00:00.000Z',
        weekEnd: '2026-11-16T00:00:00.000Z',
        metric: 'volume',
        volume: 68.5,
        trades: 4,
        rank: 2,
        participants: 3,
      },
    });
    const bob = await app.as('pf-bob').get('/api/portfolio/analytics');
    expect((bob.body as Analytics).weeklyRank).toMatchObject({
      volume: 100,
      trades: 1,
      rank: 1,
      participants: 3,
    });
    const dave = await app.as('pf-dave').get('/api/portfolio/analytics');
    expect((dave.body as Analytics).weeklyRank).toMatchObject({ volume: 68.5, rank: 2 });
    const carol = await app.as('pf-carol').get('/api/portfolio/analytics');
    expect((carol.body as Analytics).weeklyRank).toMatchObject({
      volume: 0,
      trades: 0,
      rank: null,
      participants: 3,
    });
  });
});

describe('GET /api/portfolio/history', () => {
  it('pages the fills newest first with a total', async () => {
    const r = await alice('/api/portfolio/history');
    expect(r.status).toBe(200);
    const page = r.body as History;
    expect(page).toMatchObject({ limit: 50, offset: 0, total: 4 });
    expect(page.data.map((t) => [t.orderId, t.price, t.size, t.notional, t.fee])).toEqual([
      [ids.O3, 0.6, 10, 6, 0.12],
      [ids.O2, 0.45, 50, 22.5, 0.5],
      [ids.O1, 0.41, 50, 20.5, 0.4],
      [ids.O1, 0.39, 50, 19.5, 0.4],
    ]);
    expect(page.data[1]).toMatchObject({ source: 'service', mode: 'live', eventId: mk.B1.eventId });
    expect(page.data[0].marketTitle).toEqual(expect.any(String));
    const p2 = await alice('/api/portfolio/history?limit=2&offset=1');
    expect((p2.body as History).data.map((t) => t.price)).toEqual([0.45, 0.41]);
    expect(p2.body).toMatchObject({ limit: 2, offset: 1, total: 4 });
    const end = await alice('/api/portfolio/history?limit=200&offset=4');
    expect(end.body).toMatchObject({ data: [], limit: 200, offset: 4, total: 4 });
  });

  it.each([
    ['limit=201', 'limit'],
    ['limit=0', 'limit'],
    ['limit=abc', 'limit'],
    ['offset=-1', 'offset'],
  ])('?%s is a 400 naming %s', async (query, field) => {
    const r = await alice(`/api/portfolio/history?${query}`);
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(new RegExp(`^${field}`));
  });
});

describe('GET /api/portfolio/overview', () => {
  it('composes balances, positions, summary and recent activity in one response', async () => {
    const r = await alice('/api/portfolio/overview');
    expect(r.status).toBe(200);
    const body = r.body as PortfolioOverviewQuery['portfolio'];
    expect(body.userId).toBe('pf-alice');
    expect(body.balances).toEqual({
      currency: 'USD',
      available: 1000,
      held: 0,
      onchain: 0,
      onchainError: null,
      positionsValue: 85.725,
      equity: 1085.725,
    });
    expect(body.positions.total).toBe(3);
    expect(body.positions.data[0]).toMatchObject({ id: ids.P1, marketValue: 54.6 });
    expect(body.summary).toMatchObject({ realizedPnl: 2.11, unrealizedPnl: 17.225, fees: 1.79 });
    expect(body.recentActivity.map((t) => t.orderId)).toEqual([ids.O3, ids.O2, ids.O1, ids.O1]);
  });
});

describe('GET /api/positions', () => {
  it('lists every status by default, most recently changed first', async () => {
    const r = await alice('/api/positions');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ limit: 50, offset: 0, total: 6 });
    expect((r.body as Positions).data.map((p) => p.id)).toEqual([ids.P1, ids.P6, ids.P3, ids.P2, ids.P4, ids.P5]);
  });

  it.each([
    ['open', ['P1', 'P3', 'P2']],
    ['closed', ['P4', 'P5']],
    ['pending', ['P6']],
  ])('filters status=%s', async (status, expected) => {
    const r = await alice(`/api/positions?status=${status}`);
    expect(r.status).toBe(200);
    const page = r.body as Positions;
    expect(page.data.map((p) => p.id)).toEqual(expected.map((k) => ids[k]));
    expect(page.total).toBe(expected.length);
    expect(page.data.every((p) => p.status === status)).toBe(true);
  });

  it('pages with limit and offset', async () => {
    const r = await alice('/api/positions?limit=2&offset=2');
    expect(r.body).toMatchObject({ limit: 2, offset: 2, total: 6 });
    expect((r.body as Positions).data.map((p) => p.id)).toEqual([ids.P3, ids.P2]);
  });

  it('shows a closed position flat, with its realized PnL', async () => {
    const r = await alice('/api/positions?status=closed');
    expect((r.body as Positions).data[1]).toMatchObject({
      id: ids.P5,
      size: 0,
      avgPrice: null,
      realizedPnl: 4.73,
      fees: 0.27,
      marketValue: 0,
      unrealizedPnl: 0,
    });
  });

  it.each([
    ['status=opened', 'status'],
    ['limit=201', 'limit'],
    ['limit=0', 'limit'],
    ['offset=x', 'offset'],
  ])('?%s is a 400 naming %s', async (query, field) => {
    const r = await alice(`/api/positions?${query}`);
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(new RegExp(`^${field}`));
  });

  it("does not show another user's positions", async () => {
    const r = await app.as('pf-bob').get('/api/positions');
    expect(r.body).toMatchObject({ data: [], total: 0 });
  });
});

describe('GET /api/positions/{positionId}', () => {
  it('gives the position with its mark and linked orders, newest first', async () => {
    const r = await alice(`/api/positions/${ids.P1}`);
    expect(r.status).toBe(200);
    const p = r.body as PositionQuery['position'];
    expect(p).toMatchObject({
      id: ids.P1,
      size: 100,
      marketValue: 54.6,
      unrealizedPnl: 14.6,
      mark: { source: 'live', price: 0.546 },
    });
    // O5 is on the same market outcome (a cancelled order without a positionId); O1 names the position.
    expect(p.orders.map((o) => [o.id, o.state])).toEqual([
      [ids.O5, 'cancelled'],
      [ids.O1, 'filled'],
    ]);
    expect(p.orders[1].fills).toEqual([
      expect.objectContaining({ seq: 1, price: 0.39, size: 50, fee: 0.4 }),
      expect.objectContaining({ seq: 2, price: 0.41, size: 50, fee: 0.4 }),
    ]);
    const p2 = await alice(`/api/positions/${ids.P2}`);
    expect((p2.body as PositionQuery['position']).orders.map((o) => o.id)).toEqual([ids.O2]);
  });

  it("is a 404 for an unknown id and for another user's position", async () => {
    const unknown = await alice('/api/positions/00000000-0000-0000-0000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'not_found' });
    expect((await app.as('pf-bob').get(`/api/positions/${ids.P1}`)).status).toBe(404);
  });
});

describe('GET /api/positions/by-market/{venue}/{marketId}', () => {
  it('gives both outcomes of the market, any status', async () => {
    const r = await alice(`/api/positions/by-market/venue_a/${mk.C1.marketId}`);
    expect(r.status).toBe(200);
    const body = r.body as PositionsByMarketQuery['positionsByMarket'];
    expect(body).toMatchObject({ venue: 'venue_a', marketId: mk.C1.marketId });
    expect(body.data.map((p) => [p.id, p.outcome, p.status])).toEqual([
      [ids.P3, 'yes', 'open'],
      [ids.P5, 'no', 'closed'],
    ]);
  });

  it('is empty where the caller holds nothing, and a 400 on an unknown venue', async () => {
    const none = await alice('/api/positions/by-market/venue_b/NO-SUCH-MARKET');
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ venue: 'venue_b', marketId: 'NO-SUCH-MARKET', data: [] });
    expect((await app.as('pf-bob').get(`/api/positions/by-market/venue_a/${mk.A1.marketId}`)).body).toMatchObject({
      data: [],
    });
    const bad = await alice(`/api/positions/by-market/venue_c/${mk.A1.marketId}`);
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toMatch(/^venue/);
  });
});

describe('GET /api/orders', () => {
  it('lists the orders newest first with their fills', async () => {
    const r = await alice('/api/orders');
    expect(r.status).toBe(200);
    const page = r.body as Orders;
    expect(page.total).toBe(6);
    expect(page.data.map((o) => o.id)).toEqual([ids.O5, ids.O4, ids.O3, ids.O2, ids.O1, ids.O6]);
    expect(page.data[4]).toMatchObject({ state: 'filled', filledSize: 100, avgPrice: 0.4, notional: 40, fees: 0.8 });
    expect(page.data[4].fills).toHaveLength(2);
  });

  it.each([
    ['filled', ['O3', 'O2', 'O1']],
    ['submitted', ['O4']],
    ['cancelled', ['O5']],
    ['rejected', ['O6']],
    ['pending', []],
    ['partially_filled', []],
    ['failed', []],
  ])('filters state=%s', async (state, expected) => {
    const r = await alice(`/api/orders?state=${state}`);
    expect(r.status).toBe(200);
    expect((r.body as Orders).data.map((o) => o.id)).toEqual(expected.map((k) => ids[k]));
    expect((r.body as Orders).total).toBe(expected.length);
  });

  it.each([
    ['state=done', 'state'],
    ['state=FILLED', 'state'],
    ['limit=201', 'limit'],
    ['offset=-5', 'offset'],
  ])('?%s is a 400 naming %s', async (query, field) => {
    const r = await alice(`/api/orders?${query}`);
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(new RegExp(`^${field}`));
  });
});
