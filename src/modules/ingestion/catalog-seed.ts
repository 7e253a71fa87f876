import { ModuleScope } from '../../kernel';
import { SearchService } from '../search/search.service';
import { TraderStatsService } from '../social/traders/trader-stats.service';
import { CatalogJob } from './catalog-job';
import { CatalogService } from './catalog.service';
import { MarketIndex } from './market-index';
import { inTradeKeyOrder, toTradeRow } from './trade-ingest.service';

/**
 * Seeds an empty database with the simulated world's catalog, then loads the market index trades
 * are tagged with; with a live venue, runs the catalog job's first sync instead.
 */
export async function seedCatalog(scope: ModuleScope): Promise<void> {
  const { db, logger, config, get } = scope;
  const job = get(CatalogJob);
  // SEED_ON_START=off: an empty database stays empty (another process, or `npm run seed`, fills it).
  const empty = config.roles.seedOnStart && (await db.prisma.coreEvent.count()) === 0;
  if (job.matching) {
    // Live venues: the first sync runs at start, whatever the database holds (it refreshes the index).
    const report = await job.run().catch((err: unknown) => {
      logger.error({ err }, 'the first catalog sync failed; the schedule retries');
      return undefined;
    });
    if (report) logger.info(report, 'synced the venues catalogs');
    if (!empty) get(SearchService).scheduleRefresh();
    return;
  }
  if (empty) {
    const report = await get(CatalogService).sync(scope.catalogSource);
    logger.info(report, 'seeded the demo world into an empty database');
  }
  await get(MarketIndex).refresh();
  // Vectors missing or stale in a database seeded earlier (a sync above already asked).
  if (!empty) get(SearchService).scheduleRefresh();
  if (empty && config.sim.backfillTrades > 0) await backfillTrades(scope, config.sim.backfillTrades);
}

/**
 * Loads each market's recent public trades so the leaderboard and trader
 * histories start with data. History is not news: it is stored, not published.
 */
async function backfillTrades({ db, venues, logger, get }: ModuleScope, perMarket: number): Promise<void> {
  const markets = await db.prisma.market.findMany({ select: { venue: true, venueMarketId: true } });
  const trades = (
    await Promise.all(
      markets.map((m) => venues[m.venue].getPublicTrades(m.venueMarketId, { limit: perMarket, offset: 0 })),
    )
  ).flat();
  for (let i = 0; i < trades.length; i += 1000) {
    await db.prisma.trade.createMany({
      data: inTradeKeyOrder(trades.slice(i, i + 1000)).map(toTradeRow),
      skipDuplicates: true,
    });
  }
  const stats = await get(TraderStatsService).rebuild();
  logger.info({ trades: trades.length, traders: stats.traders }, 'backfilled recent public trades');
}
