import type { LeaderboardQuery, TraderQuery, TraderTradesQuery } from '../../../schema/generated/operations';
import { TradeIngestService } from '../../../src/modules/ingestion/trade-ingest.service';
import type { PublicTrade } from '../../../src/venues/venue.models';
import { http, startTestApp, type TestApp } from '../../support/app';
import { publicTrade } from '../../support/trades';
import { wallet, wallets } from '../../support/wallets';

type TraderTrades = TraderTradesQuery['traderTrades'];
type Leaderboard = LeaderboardQuery['leaderboard'];

const [X, Y, Z] = wallets('a', 'b', 'c');

let app: TestApp;
let marketId: string;
let seq = 0;
const t = (trader: string, side: 'buy' | 'sell', outcome: 'yes' | 'no', size: number, price: number): PublicTrade => {
  seq += 1;
  return publicTrade({
    venueTradeId: `lb-${seq}`,
    venueMarketId: marketId,
    venueTraderId: trader,
    side,
    outcome,
    price,
    size,
    filledAt: new Date(Date.UTC(2026, 10, 1, 0, 0, seq)),
  });
};

beforeAll(async () => {
  app = await startTestApp({ ADMIN_TOKEN: 'lb-admin-token' });
  marketId = (await app.services.db.prisma.market.findFirstOrThrow({ where: { venue: 'venue_a', status: 'active' } }))
    .venueMarketId;
  // Hand-built history, ingested in two batches (stats are incremental).
  await app.services
    .get(TradeIngestService)
    .ingest([t(X, 'buy', 'yes', 10, 0.4), t(X, 'buy', 'yes', 10, 0.5), t(Y, 'buy', 'no', 4, 0.7)]);
  await app.services
    .get(TradeIngestService)
    .ingest([
      t(X, 'sell', 'yes', 5, 0.6),
      t(Y, 'sell', 'no', 4, 0.5),
      ...Array.from({ length: 5 }, () => t(Z, 'buy', 'yes', 1, 0.1)),
    ]);
});
afterAll(async () => {
  await app.close();
});

const board = async (sort: string) =>
  ((await http(`${app.url}/api/leaderboard?sort_by=${sort}&venue=venue_a`)).body as Leaderboard).data;

describe('trader stats from trades', () => {
  it('computes volume, realized PnL, wins, losses and counts (hand-computed)', async () => {
    const rows = await board('total_volume');
    const x = rows.find((r) => r.traderId === X)!;
    const y = rows.find((r) => r.traderId === Y)!;
    const z = rows.find((r) => r.traderId === Z)!;
    // X: 4 + 5 + 3 volume; sells 5 of 20 held at basis 9.00 → releases 2.25 for 3.00.
    expect(x).toMatchObject({ totalVolume: 12, realizedPnl: 0.75, winCount: 1, lossCount: 0, totalTrades: 3 });
    // Y: buys 4 NO at 0.70, sells them at 0.50.
    expect(y).toMatchObject({ totalVolume: 4.8, realizedPnl: -0.8, winCount: 0, lossCount: 1, totalTrades: 2 });
    expect(z).toMatchObject({ totalVolume: 0.5, realizedPnl: 0, totalTrades: 5 });
  });

  it.each([
    ['total_volume', [X, Y, Z]],
    ['total_pnl', [X, Z, Y]],
    ['win_count', [X, Y, Z]],
    ['total_trades', [Z, X, Y]],
  ])('ranks by %s', async (sort, order) => {
    const rows = await board(sort);
    expect(rows.map((r) => r.traderId)).toEqual(order);
    expect(rows.map((r) => r.rank)).toEqual([1, 2, 3]);
  });

  it('400 for an unknown sort, venue or limit', async () => {
    for (const qs of ['sort_by=luck', 'venue=nyse', 'limit=201', 'limit=0']) {
      const r = await http(`${app.url}/api/leaderboard?${qs}`);
      expect(r.status).toBe(400);
    }
  });
});

describe('POST /api/leaderboard/refresh', () => {
  it('needs a bearer and the admin token (401), and recomputes with unrealized PnL at the mark', async () => {
    expect((await http(`${app.url}/api/leaderboard/refresh`, { method: 'POST' })).status).toBe(401);
    expect((await app.as('lb-user').post('/api/leaderboard/refresh')).status).toBe(401);
    expect(
      (
        await http(`${app.url}/api/leaderboard/refresh`, {
          method: 'POST',
          headers: { 'x-admin-token': 'lb-admin-token' },
        })
      ).status,
    ).toBe(401);
    const r = await app
      .as('lb-user')
      .post('/api/leaderboard/refresh', undefined, { 'x-admin-token': 'lb-admin-token' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ traders: 3, trades: 10 });

    const m = await app.services.db.prisma.market.findFirstOrThrow({
      where: { venue: 'venue_a', venueMarketId: marketId },
    });
    const mid = (Number(m.bestBid) + Number(m.bestAsk)) / 2;
    const x = (await board('total_volume')).find((row) => row.traderId === X)!;
    // 15 YES left at basis 6.75.
    expect(x.realizedPnl).toBe(0.75);
    expect(x.unrealizedPnl).toBeCloseTo(15 * mid - 6.75, 5);
    expect(x.totalPnl).toBeCloseTo(0.75 + 15 * mid - 6.75, 5);
    expect(x.totalVolume).toBe(12);
  });
});

describe('traders', () => {
  it('profile with followers and volume rank; 404 for an unknown trader and for a malformed id', async () => {
    await app.as('fan').post('/api/follows', { venue: 'venue_a', traderId: X });
    const p = await http(`${app.url}/api/traders/venue_a/${X.toUpperCase().replace('0X', '0x')}`);
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ traderId: X, followers: 1, volumeRank: 1, totalTrades: 3 });
    expect((await http(`${app.url}/api/traders/venue_a/${wallet('d')}`)).status).toBe(404);
    for (const path of ['venue_a/nope', `venue_c/${X}`, `venue_a/${'x'.repeat(101)}`, 'venue_a/a%00b', 'venue_b/a']) {
      const r = await http(`${app.url}/api/traders/${path}`);
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ error: 'not_found' });
    }
  });

  it(
    "volumeRank is the trader's rank on the venue's volume leaderboard, ties ordered by trader id as " + 'there',
    async () => {
      // Three traders with the same volume (0.3 each), ingested out of id order.
      const tied = wallets('3', '1', '2');
      await app.services.get(TradeIngestService).ingest(tied.map((w) => t(w, 'buy', 'yes', 1, 0.3)));
      const rows = (
        (await http(`${app.url}/api/leaderboard?sort_by=total_volume&venue=venue_a&limit=200`)).body as Leaderboard
      ).data;
      const onBoard = rows.filter((r) => tied.includes(r.traderId));
      expect(onBoard.map((r) => r.traderId)).toEqual([...tied].sort());
      expect(new Set(onBoard.map((r) => r.rank)).size).toBe(3);
      for (const row of rows) {
        const profile = (await http(`${app.url}/api/traders/venue_a/${row.traderId}`)).body as TraderQuery['trader'];
        expect([row.traderId, profile.volumeRank]).toEqual([row.traderId, row.rank]);
      }
    },
  );

  it("lists a trader's trades newest first with offset paging", async () => {
    const page = (await http(`${app.url}/api/traders/venue_a/${X}/trades?limit=2`)).body as TraderTrades;
    expect(page.total).toBe(3);
    expect(page.data.map((d) => [d.side, d.price, d.size])).toEqual([
      ['sell', 0.6, 5],
      ['buy', 0.5, 10],
    ]);
    const rest = (await http(`${app.url}/api/traders/venue_a/${X}/trades?limit=2&offset=2`)).body as TraderTrades;
    expect(rest.data).toHaveLength(1);
  });
});

describe('backfill', () => {
  it('gives a new embedded database a leaderboard from recent public trades', async () => {
    const filled = await startTestApp({ SIM_BACKFILL_TRADES: '3' });
    try {
      const rows = (await http(`${filled.url}/api/leaderboard?limit=5`)).body as Leaderboard;
      expect(rows.total).toBeGreaterThan(10);
      expect(rows.data[0].totalVolume).toBeGreaterThan(0);
    } finally {
      await filled.close();
    }
  });
});
