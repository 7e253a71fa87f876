import { TraderStatsService } from '../../../src/modules/social/traders/trader-stats.service';
import { TradeIngestService } from '../../../src/modules/ingestion/trade-ingest.service';
import type { PublicTrade } from '../../../src/venues/venue.models';
import { startTestApp, type TestApp } from '../../support/app';
import { round6 } from '../../support/money';
import { statementsOf } from './statements';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

/** A small deterministic generator (LCG), so the trade sequence is the same every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

const TRADERS = Array.from({ length: 7 }, (_, i) => `0x${String(i + 1).repeat(40)}`);

/**
 * `n` trades on markets the catalog does not list (no mark, so a rebuild
 * marks nothing to market and every figure must match), with strictly
 * increasing fill times; sells are often larger than what is held.
 */
function tradeSequence(prefix: string, n: number, seed: number, sides: 'mixed' | 'buys' = 'mixed'): PublicTrade[] {
  const r = rng(seed);
  const start = Date.UTC(2026, 9, 1);
  return Array.from({ length: n }, (_, i) => ({
    venue: 'venue_a' as const,
    venueTradeId: `${prefix}-${i}`,
    venueMarketId: `${prefix}-market-${Math.floor(r() * 3)}`,
    venueTraderId: TRADERS[Math.floor(r() * TRADERS.length)],
    side: sides === 'buys' || r() < 0.6 ? ('buy' as const) : ('sell' as const),
    outcome: r() < 0.5 ? ('yes' as const) : ('no' as const),
    price: round6(0.01 + r() * 0.98),
    size: round6(0.000001 + r() * 250),
    filledAt: new Date(start + i * 1_000 + 137),
  }));
}

/** Every position and stat row as exact text (updatedAt aside). */
async function snapshot(prefix: string) {
  const prisma = app.services.db.prisma;
  const positions = await prisma.$queryRaw<unknown[]>`
    SELECT "venue"::text, "traderId", "venueMarketId", "outcome"::text, "size"::text, "costBasis"::text,
    "realizedPnl"::text
    FROM "TraderPosition" WHERE "venueMarketId" LIKE ${`${prefix}-%`} ORDER BY 1, 2, 3, 4`;
  const stats = await prisma.$queryRaw<unknown[]>`
    SELECT "venue"::text, "traderId", "totalVolume"::text, "totalTrades", "winCount", "lossCount",
           "realizedPnl"::text, "unrealizedPnl"::text, "totalPnl"::text, "firstTradeAt", "lastTradeAt"
    FROM "TraderStat" ORDER BY 1, 2`;
  return { positions, stats };
}

async function clear(): Promise<void> {
  await app.services.db.prisma.$transaction([
    app.services.db.prisma.trade.deleteMany({}),
    app.services.db.prisma.traderPosition.deleteMany({}),
    app.services.db.prisma.traderStat.deleteMany({}),
  ]);
}

describe('TraderStatsService.apply (set-based) against a full rebuild', () => {
  beforeEach(clear);

  it('gives the same positions and stats as a rebuild over the same trades, batch after batch', async () => {
    const trades = tradeSequence('inc', 1_500, 7);
    // Batches of uneven sizes, including one trade alone and one of 1,000.
    const cuts = [0, 1, 40, 41, 300, 1_300, 1_500];
    for (let i = 1; i < cuts.length; i += 1)
      await app.services.get(TradeIngestService).ingest(trades.slice(cuts[i - 1], cuts[i]));
    const incremental = await snapshot('inc');
    expect(incremental.positions.length).toBeGreaterThan(20);
    expect(incremental.stats).toHaveLength(TRADERS.length);

    const r = await app.services.get(TraderStatsService).rebuild();
    expect(r).toEqual({ traders: TRADERS.length, trades: 1_500 });
    expect(await snapshot('inc')).toEqual(incremental);
  });

  it('matches a rebuild when buys arrive out of order across batches (first and last trade widened)', async () => {
    const trades = tradeSequence('ooo', 400, 11, 'buys');
    await app.services.get(TradeIngestService).ingest(trades.slice(200));
    await app.services.get(TradeIngestService).ingest(trades.slice(0, 200));
    const incremental = await snapshot('ooo');
    await app.services.get(TraderStatsService).rebuild();
    expect(await snapshot('ooo')).toEqual(incremental);
  });

  it('applies a batch in the same few statements whatever its size', async () => {
    let round = 0;
    const count = (n: number) =>
      statementsOf(app, () =>
        app.services.get(TraderStatsService).apply(tradeSequence(`batch${(round += 1)}`, n, round)),
      );
    const one = await count(1);
    const many = await count(1_000);
    expect(many).toBe(one);
    expect(one).toBeLessThanOrEqual(6);
  });
});
