import { defineModule, onTopic, provide } from '../../kernel';
import { createEmbedder } from '../search/embedder.factory';
import { CATALOG_CHANGED_TOPIC } from '../events/events.models';
import { NotificationsService } from '../notifications/notifications.service';
import { SearchService } from '../search/search.service';
import { MarketKeeper } from '../market-streams/market-keeper';
import { FollowsService } from '../social/follows/follows.service';
import { TraderStatsService } from '../social/traders/trader-stats.service';
import { TRADES_TOPIC } from '../trades/trades.models';
import { CatalogJob } from './catalog-job';
import { CatalogOverridesService } from './catalog-overrides.service';
import { seedCatalog } from './catalog-seed';
import { CatalogService } from './catalog.service';
import { IngestionResolver } from './ingestion.resolver';
import { MarketIndex } from './market-index';
import { TradeIngestService } from './trade-ingest.service';
import { ingestionSettings } from './ingestion.settings';

/**
 * The catalog (seeded from the venues; with a live venue, synced by the catalog
 * job on a schedule, matching the venues' events; admin overrides) and the
 * venues' live trades: stored in batches, then announced (trader stats,
 * followers' notifications, the trades topic).
 */
export const ingestionModule = defineModule({
  name: 'ingestion',
  settings: ingestionSettings,
  resolvers: [IngestionResolver],
  services: [
    provide(CatalogService, ({ db, infra, config, logger, get }) => {
      const search = get(SearchService);
      return new CatalogService(
        db.prisma,
        async () => {
          await infra.pubsub.publish(CATALOG_CHANGED_TOPIC, { at: Date.now() });
          // Search vectors follow the catalog, in the background (only changed texts are embedded).
          search.scheduleRefresh();
        },
        {
          // The search embeddings: venue events are compared by the vectors search would give them.
          embedder: createEmbedder(config.embeddings),
          matchThreshold: config.catalog.matchThreshold,
          onVenueError: (venue, err) => logger.error({ err, venue }, 'catalog sync: listing a venue failed'),
        },
      );
    }),
    provide(MarketIndex, ({ get }) => new MarketIndex(get(CatalogService))),
    provide(
      CatalogJob,
      ({ get, catalogSource, logger }) =>
        new CatalogJob(get(CatalogService), get(MarketIndex), catalogSource, (err) =>
          logger.error({ err }, 'catalog sync failed'),
        ),
    ),
    provide(
      CatalogOverridesService,
      ({ db, get, logger }) =>
        new CatalogOverridesService(db.prisma, get(CatalogJob), (err) =>
          logger.error({ err }, 'catalog sync after an override failed; the next sync applies it'),
        ),
    ),
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
    {
      // Per process: each keeps its own market index (an empty database is seeded when SEED_ON_START is on);
      // the live venues' sync writes only in the process holding its lock.
      name: 'catalog',
      start: async (scope) => {
        await seedCatalog(scope);
        // The simulated world's catalog is seeded once; live venues' catalogs are synced on a schedule.
        if (scope.get(CatalogJob).matching) scope.get(CatalogJob).start(scope.config.catalog.syncMs);
      },
      stop: ({ get }) => get(CatalogJob).stop(),
    },
    {
      // Per process: it stores what this process's venue clients deliver (the simulated feed runs in one).
      name: 'trade ingestion',
      start: ({ get, venues }) => get(TradeIngestService).start(Object.values(venues)),
      stop: ({ get }) => get(TradeIngestService).stop(),
    },
    {
      // One process holds the venues' websockets (N processes open one set) and keeps the followed books;
      // the venue trades they carry are stored here, then published once (docs/venues.md#what-is-streamed).
      name: 'venue streams',
      exclusive: true,
      start: ({ get }) => get(MarketKeeper).start((t) => get(TradeIngestService).enqueue(t)),
      stop: ({ get }) => get(MarketKeeper).stop(),
    },
    {
      name: 'simulated live trades',
      exclusive: true,
      start: ({ world, config, venueSources }) => {
        const simulated = Object.values(venueSources).includes('sim');
        if (simulated && config.sim.tradeRate > 0) world.startLiveTrades(config.sim.tradeRate);
      },
      stop: ({ world }) => world.stopLiveTrades(),
    },
  ],
  topics: {
    publishes: [CATALOG_CHANGED_TOPIC, TRADES_TOPIC],
    // Every process tags live trades with the catalog of the last sync, whichever process ran it.
    subscribes: [onTopic(CATALOG_CHANGED_TOPIC, ({ get }) => get(MarketIndex).refresh())],
  },
});
