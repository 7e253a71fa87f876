import type { HomeQuery } from '../../../schema/generated/operations';
import { MarketsService } from '../../../src/modules/markets/markets.service';
import { EventsService } from '../../../src/modules/events/events.service';
import { http, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';
import { pinnedWorld } from '../../support/pinned-world';
import { insertOpenPositions } from '../portfolio/portfolio-fixtures';
import { statementsOf } from './statements';

/**
 * GET /api/home (and the GraphQL `home` query) over a real database: the
 * followed traders' newest trades, trending events and the positions summary,
 * with the category filter, and SQL round trips that do not grow with the
 * follows, trades and positions.
 */
let app: TestApp;
const pinned = pinnedWorld();
const W = (i: number) => '0x' + i.toString(16).padStart(40, '0');
let catA: string;
let catB: string;
let marketA: string;
let marketB: string;
let seq = 0;

type HomeBody = HomeQuery['home'];

async function trades(trader: string, market: string, n: number, at = pinned.clock.ms - 3_600_000): Promise<void> {
  await app.services.db.prisma.trade.createMany({
    data: Array.from({ length: n }, (_, i) => ({
      venue: 'venue_a' as const,
      venueTradeId: `home-${(seq += 1)}`,
      venueMarketId: market,
      venueTraderId: trader,
      side: 'buy' as const,
      outcome: 'yes' as const,
      price: '0.4',
      size: String(i + 1),
      filledAt: new Date(at + i * 1000),
    })),
  });
}

async function positions(userId: string, n: number): Promise<void> {
  const markets = await app.services.db.prisma.market.findMany({ orderBy: { id: 'asc' }, take: n });
  await insertOpenPositions(app.services.db.prisma, userId, markets, '10', '4');
}

async function follow(userId: string, traders: string[]): Promise<void> {
  await app.services.db.prisma.follow.createMany({
    data: traders.map((traderId) => ({ userId, venue: 'venue_a' as const, traderId })),
  });
}

const home = (userId: string | null, query = '') =>
  userId ? app.as(userId).get(`/api/home${query}`) : http(`${app.url}/api/home${query}`);

beforeAll(async () => {
  // No background SQL inside a measurement: the withdrawal dispatcher's poll is off.
  app = await startTestApp({ WITHDRAWAL_DISPATCH_MS: '0' }, {}, pinned);
  const prisma = app.services.db.prisma;
  const markets = await prisma.market.findMany({
    where: { venue: 'venue_a' },
    include: { coreEvent: true },
    orderBy: { id: 'asc' },
  });
  const first = markets[0];
  const second = markets.find((m) => m.coreEvent.category !== first.coreEvent.category)!;
  [marketA, catA, marketB, catB] = [
    first.venueMarketId,
    first.coreEvent.category,
    second.venueMarketId,
    second.coreEvent.category,
  ];

  // The viewer follows W1 and W2; W3 trades too but is not followed.
  await follow('viewer', [W(1), W(2)]);
  await trades(W(1), marketA, 2, pinned.clock.ms - 7_200_000);
  await trades(W(2), marketB, 1, pinned.clock.ms - 3_600_000);
  await trades(W(3), marketA, 1, pinned.clock.ms - 60_000);
  await positions('viewer', 3);

  // Few and many: 1 follow, 2 trades, 2 positions against 40 follows, 400 trades, 120 positions.
  await follow('few', [W(100)]);
  await trades(W(100), marketA, 2);
  await positions('few', 2);
  const many = Array.from({ length: 40 }, (_, i) => W(200 + i));
  await follow('many', many);
  for (const [i, w] of many.entries()) await trades(w, i % 2 ? marketA : marketB, 10);
  await positions('many', 120);
});
afterAll(async () => {
  await app.close();
});

describe('GET /api/home', () => {
  it("shows the followed traders' newest trades, trending events and the positions summary", async () => {
    const r = await home('viewer');
    expect(r.status).toBe(200);
    const b = r.body as HomeBody;
    expect(b.category).toBeNull();
    expect(b.activity.map((a) => [a.traderId, a.marketId, a.size])).toEqual([
      [W(2), marketB, 1],
      [W(1), marketA, 2],
      [W(1), marketA, 1],
    ]);
    expect(b.activity[0]).toMatchObject({ category: catB, price: 0.4 });
    expect(b.activity[0].id).toMatch(/^venue_a:home-/);
    expect(typeof b.activity[0].eventTitle).toBe('string');
    expect(b.trending).toHaveLength(10);
    const scores = b.trending.map((e) => e.activityScore);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    expect(b.trending.every((e) => e.markets.length > 0)).toBe(true);
    expect(b.portfolio).toMatchObject({ currency: 'USD', openPositions: 3, costBasis: 12 });
  });

  it('the category filter applies to activity and trending events', async () => {
    const r = await home('viewer', `?category=${encodeURIComponent(catA)}`);
    expect(r.status).toBe(200);
    const b = r.body as HomeBody;
    expect(b.category).toBe(catA);
    expect(b.activity.map((a) => a.traderId)).toEqual([W(1), W(1)]);
    expect(b.activity.every((a) => a.category === catA)).toBe(true);
    expect(b.trending.length).toBeGreaterThan(0);
    expect(b.trending.every((e) => e.category === catA)).toBe(true);
    const none = (await home('viewer', '?category=no-such-category')).body as HomeBody;
    expect([none.activity, none.trending]).toEqual([[], []]);
    expect(none.portfolio.openPositions).toBe(3);
  });

  it('a user who follows nobody gets trending events and an empty activity', async () => {
    const b = (await home('stranger')).body as HomeBody;
    expect(b.activity).toEqual([]);
    expect(b.trending).toHaveLength(10);
    expect(b.portfolio.openPositions).toBe(0);
  });

  it('401 without a bearer token; 400 on an oversize category', async () => {
    expect((await home(null)).status).toBe(401);
    const r = await home('viewer', `?category=${'x'.repeat(101)}`);
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(/^category/);
  });

  it('the GraphQL query answers the same screen', async () => {
    const r = await gql(
      app,
      'query($c: String) { home(category: $c) { category activity { traderId } portfolio { openPositions } } }',
      { c: catB },
      await app.bearer('viewer'),
    );
    expect(r.body).toEqual({
      data: { home: { category: catB, activity: [{ traderId: W(2) }], portfolio: { openPositions: 3 } } },
    });
  });

  it('runs the same SQL statements for few and for many follows, trades and positions', async () => {
    const cold = (userId: string) => async () => {
      app.services.get(EventsService).invalidate();
      app.services.get(MarketsService).invalidate();
      const r = await home(userId);
      expect(r.status).toBe(200);
      return r.body as HomeBody;
    };
    const fewBody = await cold('few')();
    const manyBody = await cold('many')();
    expect(fewBody.activity).toHaveLength(2);
    expect(manyBody.activity).toHaveLength(20);
    expect([fewBody.portfolio.openPositions, manyBody.portfolio.openPositions]).toEqual([2, 120]);
    const few = await statementsOf(app, cold('few'));
    const many = await statementsOf(app, cold('many'));
    process.stdout.write(`\nhome SQL statements: ${few} (few), ${many} (many)\n`);
    expect(many).toBe(few);
    // Activity, trending events (page and count), their markets, and the portfolio summary's reads.
    expect(few).toBeLessThanOrEqual(10);
  });
});
