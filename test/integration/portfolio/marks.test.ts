import type { PortfolioPositionsQuery, PortfolioSummaryQuery } from '../../../schema/generated/operations';
import { MarketsService } from '../../../src/modules/markets/markets.service';
import { startTestApp, type TestApp } from '../../support/app';
import { pinnedWorld, PINNED_NOW, type PinnedWorld } from '../../support/pinned-world';
import { insertPosition, pinnedMarkets, type MarketRef } from './portfolio-fixtures';

/**
 * Marks when a venue cannot quote: the portfolio still answers, marking the
 * venue's markets with their last known price and saying so. The last known
 * price is the last live mid any request saw (shared cache), else the
 * catalog's stored quote; a market with neither is unmarked (valued at cost).
 */
let app: TestApp;
let p: PinnedWorld;
let mk: ReturnType<typeof pinnedMarkets>;

type Positions = PortfolioPositionsQuery['portfolio']['positions'];

const open = (userId: string, market: MarketRef, size: string, costBasis: string) =>
  insertPosition(app.services.db.prisma, {
    userId,
    market,
    outcome: 'yes',
    status: 'open',
    size,
    costBasis,
    realizedPnl: '0',
    fees: '0',
  });

beforeAll(async () => {
  p = pinnedWorld();
  app = await startTestApp({}, {}, p);
  mk = pinnedMarkets(p.world);
  // frank: A1 (mid 0.546) and B1 (mid 0.52), 10 contracts each at cost 5.00.
  await open('pf-frank', mk.A1, '10', '5');
  await open('pf-frank', mk.B1, '10', '5');
});
afterAll(async () => {
  p.world.setVenueDown('venue_a', false);
  p.world.setVenueDown('venue_b', false);
  await app.close();
});

const byMarket = (body: Positions, m: MarketRef) => body.data.find((x) => x.marketId === m.marketId)!;

describe('a venue that is down', () => {
  it('marks live while both venues quote', async () => {
    const r = await app.as('pf-frank').get('/api/portfolio');
    const body = r.body as Positions;
    expect(byMarket(body, mk.B1).mark).toMatchObject({
      price: 0.52,
      source: 'live',
      asOf: new Date(PINNED_NOW).toISOString(),
    });
    expect(body.markStatus.every((s) => s.live)).toBe(true);
  });

  it('marks its markets at the last live mid seen, and says so', async () => {
    p.clock.ms = PINNED_NOW + 5_000; // later, inside the same 15 s book bucket
    p.world.setVenueDown('venue_b', true);
    try {
      const r = await app.as('pf-frank').get('/api/portfolio');
      expect(r.status).toBe(200);
      const body = r.body as Positions;
      expect(byMarket(body, mk.B1).mark).toEqual({
        price: 0.52,
        yesPrice: 0.52,
        source: 'last_known',
        asOf: new Date(PINNED_NOW).toISOString(),
        reason: 'venue_b is unavailable',
      });
      expect(byMarket(body, mk.B1).marketValue).toBe(5.2);
      expect(byMarket(body, mk.A1).mark.source).toBe('live');
      expect(body.markStatus).toEqual([
        { venue: 'venue_a', live: true, markets: 1, lastKnown: 0, unmarked: 0, reason: null },
        { venue: 'venue_b', live: false, markets: 1, lastKnown: 1, unmarked: 0, reason: 'venue_b is unavailable' },
      ]);
      // The overview answers too, with the same marks.
      const overview = await app.as('pf-frank').get('/api/portfolio/overview');
      expect(overview.status).toBe(200);
      expect(overview.body).toMatchObject({ summary: { marketValue: 10.66, unrealizedPnl: 0.66 } }); // 5.46 + 5.20 − 10
    } finally {
      p.world.setVenueDown('venue_b', false);
      p.clock.ms = PINNED_NOW;
    }
  });

  it("falls back to the catalog's stored quote for a market never marked live", async () => {
    // B2 has not been marked by any request of this app; its catalog row quotes 0.30 / 0.40.
    await open('pf-gina', mk.B2, '10', '3');
    await app.services.db.prisma.market.update({
      where: { id: `venue_b:${mk.B2.marketId}` },
      data: { bestBid: '0.3', bestAsk: '0.4' },
    });
    app.services.get(MarketsService).invalidate();
    const row = await app.services.db.prisma.market.findUniqueOrThrow({ where: { id: `venue_b:${mk.B2.marketId}` } });
    p.world.setVenueDown('venue_b', true);
    try {
      const r = await app.as('pf-gina').get('/api/portfolio');
      const mark = (r.body as Positions).data[0].mark;
      expect(mark).toEqual({
        price: 0.35,
        yesPrice: 0.35,
        source: 'last_known',
        asOf: row.updatedAt.toISOString(),
        reason: 'venue_b is unavailable',
      });
      expect((r.body as Positions).data[0]).toMatchObject({ marketValue: 3.5, unrealizedPnl: 0.5 });
    } finally {
      p.world.setVenueDown('venue_b', false);
    }
  });

  it('leaves a market with no price at all unmarked: valued at cost, out of unrealized PnL', async () => {
    const ghost: MarketRef = { venue: 'venue_b', marketId: 'KX-NOT-IN-CATALOG', eventId: mk.B1.eventId };
    await open('pf-hank', ghost, '10', '4');
    await open('pf-hank', mk.A1, '10', '5');
    const r = await app.as('pf-hank').get('/api/portfolio');
    expect(r.status).toBe(200);
    const body = r.body as Positions;
    expect(byMarket(body, ghost)).toMatchObject({
      mark: { price: null, yesPrice: null, source: 'none', asOf: null },
      marketValue: null,
      unrealizedPnl: null,
    });
    expect(byMarket(body, ghost).mark.reason).toMatch(/venue_b could not give the book/);
    expect(body).toMatchObject({ unmarkedPositions: 1, marketValue: 9.46, unrealizedPnl: 0.46 }); // 4.00 at cost + 5.46
    const summary = await app.as('pf-hank').get('/api/portfolio/summary');
    expect(summary.body).toMatchObject({ unmarkedPositions: 1, marketValue: 9.46, unrealizedPnl: 0.46 });
    expect((summary.body as PortfolioSummaryQuery['portfolio']['summary']).markStatus).toContainEqual(
      expect.objectContaining({ venue: 'venue_b', live: false, unmarked: 1 }),
    );
  });
});
