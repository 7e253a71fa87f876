import { defineModule, provide } from '../../kernel';
import { CATALOG_CHANGED_TOPIC } from '../events/events.models';
import { NotificationsService } from '../notifications/notifications.service';
import { SearchService } from '../search/search.service';
import { FollowsService } from '../social/follows/follows.service';
import { TraderStatsService } from '../social/traders/trader-stats.service';
import { TRADES_TOPIC } from '../trades/trades.models';
import { seedCatalog } from './catalog-seed';
import { CatalogService } from './catalog.service';
import { IngestionResolver } from './ingestion.resolver';
import { MarketIndex } from './market-index';
import { TradeIngestService } from './trade-ingest.service';

/**
 * The catalog (seeded from the venues, synced on demand) and the venues' live
 * trades: stored in batches, then announced (trader stats, followers' notifications,
 * the trades topic).
 */
export const ingestionModule = defineModule({
  name: 'ingestion',
  resolvers: [IngestionResolver],
  services: [
    provide(CatalogService, ({ db, infra, get }) => {
      const search = get(SearchService);
      return new CatalogService(db.prisma, async () => {
        await infra.pubsub.publish(CATALOG_CHANGED_TOPIC, { at: Date.now() });
        // Search vectors follow the catalog, in the background (only changed texts are embedded).
        search.scheduleRefresh();
      });
    }),
    provide(MarketIndex, ({ get }) => new MarketIndex(get(CatalogService))),
    provide(TradeIngestService, ({ db, infra, logger, get }) => {
      const index = get(MarketIndex);
      const traderStats = get(TraderStatsService);
      const follows = get(FollowsService);
      const notifications = get(NotificationsService);
      // Announcement steps run one by one, each whatever happened to the others; they throw (no
      // swallowing here) so the indexer webhook's durable record runs a failed step again.
      return new TradeIngestService(db.prisma, infra.pubsub, (key) => index.eventOf(key), {
        onError: (err) => logger.error({ err }, 'trade ingestion failed'),
        onStepError: (step, err) => logger.error({ err, step }, 'announcing stored trades failed'),
        applyStats: (trades) => traderStats.apply(trades),
        notifyFollowers: async (trades) => notifications.notify(await follows.tradeNotifications(trades)),
      });
    }),
  ],
  tasks: [
    // Per process: each keeps its own market index (an empty database is seeded when SEED_ON_START is on).
    { name: 'catalog', start: (scope) => seedCatalog(scope) },
    {
      // Per process: it stores what this process's venue clients deliver (the simulated feed runs in one).
      name: 'trade ingestion',
      start: ({ get, venues }) => get(TradeIngestService).start(Object.values(venues)),
      stop: ({ get }) => get(TradeIngestService).stop(),
    },
    {
      name: 'simulated live trades',
      exclusive: true,
      start: ({ world, config }) => {
        if (config.sim.tradeRate > 0) world.startLiveTrades(config.sim.tradeRate);
      },
      stop: ({ world }) => world.stopLiveTrades(),
    },
  ],
  topics: { publishes: [CATALOG_CHANGED_TOPIC, TRADES_TOPIC] },
});
