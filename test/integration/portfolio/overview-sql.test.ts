import type { PortfolioOverviewQuery } from '../../../schema/generated/operations';
import { randomUUID } from 'node:crypto';
import { NO_BACKGROUND_TIMERS, startTestApp, type TestApp } from '../../support/app';
import { pinnedWorld } from '../../support/pinned-world';
import { fund } from '../../support/funding';
import { EventsService } from '../../../src/modules/events/events.service';
import { MarketsService } from '../../../src/modules/markets/markets.service';

/**
 * The overview is one GraphQL query whose related rows load through
 * per-request loaders: its SQL round trips do not grow with the positions.
 * Each user holds N positions (both outcomes of N/2 markets, across venues and
 * categories), one filled order with one fill per position, and a linked
 * wallet with an on-chain position.
 */
let app: TestApp;

async function seed(userId: string, n: number): Promise<void> {
  const prisma = app.services.db.prisma;
  const markets = await prisma.market.findMany({ orderBy: { id: 'asc' }, take: n / 2 });
  expect(markets).toHaveLength(n / 2);
  const rows = markets.flatMap((m) =>
    (['yes', 'no'] as const).map((outcome) => ({
      m,
      outcome,
      positionId: randomUUID(),
      orderId: randomUUID(),
    })),
  );
  await prisma.position.createMany({
    data: rows.map((r) => ({
      id: r.positionId,
      userId,
      venue: r.m.venue,
      marketId: r.m.id,
      venueMarketId: r.m.venueMarketId,
      coreEventId: r.m.coreEventId,
      outcome: r.outcome,
      status: 'open' as const,
      sizeMicros: 10_000_000n,
      costBasisMicros: 4_000_000n,
      realizedPnlMicros: -10_000n,
      feesMicros: 10_000n,
    })),
  });
  await prisma.order.createMany({
    data: rows.map((r) => ({
      id: r.orderId,
      userId,
      venue: r.m.venue,
      marketId: r.m.id,
      venueMarketId: r.m.venueMarketId,
      coreEventId: r.m.coreEventId,
      outcome: r.outcome,
      side: 'buy' as const,
      orderType: 'market' as const,
      mode: 'live' as const,
      requestedSizeMicros: 10_000_000n,
      filledSizeMicros: 10_000_000n,
      avgPriceMicros: 400_000n,
      notionalMicros: 4_000_000n,
      feeMicros: 10_000n,
      state: 'filled' as const,
      positionId: r.positionId,
    })),
  });
  await prisma.fill.createMany({
    data: rows.map((r) => ({
      orderId: r.orderId,
      seq: 1,
      priceMicros: 400_000n,
      sizeMicros: 10_000_000n,
      feeMicros: 10_000n,
    })),
  });
  const wallet = `0x${userId === 'sql-two' ? '1' : '2'}${'0'.repeat(39)}`;
  await prisma.user.create({ data: { id: userId } });
  await prisma.wallet.create({ data: { userId, chain: 'polygon', address: wallet, kind: 'imported' } });
  const venueA = markets.find((m) => m.venue === 'venue_a')!;
  await prisma.traderPosition.create({
    data: {
      venue: 'venue_a',
      traderId: wallet,
      venueMarketId: venueA.venueMarketId,
      outcome: 'yes',
      size: '5',
      costBasis: '2',
      realizedPnl: '0',
    },
  });
  await fund(app, userId, '100');
}

beforeAll(async () => {
  const p = pinnedWorld();
  // No background SQL inside a measurement: the withdrawal dispatcher's poll is off.
  app = await startTestApp({ ...NO_BACKGROUND_TIMERS }, {}, p);
  await seed('sql-two', 2);
  await seed('sql-many', 200);
});
afterAll(async () => {
  await app.close();
});

/** SQL statements of one cold overview (the per-process catalog memos dropped first). */
async function statementsFor(userId: string, positions: number): Promise<number> {
  app.services.get(EventsService).invalidate();
  app.services.get(MarketsService).invalidate();
  const before = app.services.db.queryCount();
  const r = await app.as(userId).get('/api/portfolio/overview');
  const used = app.services.db.queryCount() - before;
  expect(r.status).toBe(200);
  const body = r.body as PortfolioOverviewQuery['portfolio'];
  expect(body.positions.total).toBe(positions + 1); // and the linked wallet's position
  expect(body.positions.data.every((x) => x.market !== null && typeof x.market.event.category === 'string')).toBe(true);
  expect(body.recentActivity).toHaveLength(Math.min(positions, 10));
  return used;
}

describe('the overview query', () => {
  it('runs the same SQL statements for 2 and for 200 positions', async () => {
    await statementsFor('sql-two', 2); // warm the venue-side state; SQL is counted cold each time
    const two = await statementsFor('sql-two', 2);
    const many = await statementsFor('sql-many', 200);
    process.stdout.write(`\noverview SQL statements: ${two} at 2 positions, ${many} at 200 positions\n`);
    expect(many).toBe(two);
    // Service positions, wallet positions, markets, events, the trades page, and the
    // wallet list and ledger balance of the balances.
    expect(two).toBeLessThanOrEqual(7);
  });
});
