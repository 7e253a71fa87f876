import { ClientRateLimits } from './auth/rate-limits';
import type { AppConfig } from './config';
import { openDatabase, type Database } from './db';
import { createLogger, type Logger } from './http/logger';
import { SignedCursor } from './http/signed-cursor';
import { createMetrics, type Metrics } from './http/metrics';
import { createInfra, ReadMemo, type Infra } from './infra';
import { CATALOG_CHANGED_TOPIC, EventsService } from './modules/events';
import { CommentsService } from './modules/comments';
import { FeedService } from './modules/feed';
import { CatalogService, TradeIngestService, openSimulatedWorld, toTradeRow } from './modules/ingestion';
import { OpsService } from './modules/ops';
import { FollowsService, LeaderboardService, SocialService, TraderStatsService } from './modules/social';
import type { SimulatedWorld } from './venues';
import { VERSION } from './version';
import type { Venue, VenueClient } from './venues/venue.types';

/** Process-wide singletons that resolvers reach through the context. */
export interface AppServices {
  config: AppConfig;
  logger: Logger;
  metrics: Metrics;
  db: Database;
  infra: Infra;
  world: SimulatedWorld;
  venues: Record<Venue, VenueClient>;
  clientLimits: ClientRateLimits;
  events: EventsService;
  catalog: CatalogService;
  tradeIngest: TradeIngestService;
  ops: OpsService;
  feed: FeedService;
  comments: CommentsService;
  follows: FollowsService;
  traderStats: TraderStatsService;
  leaderboard: LeaderboardService;
  social: SocialService;
  /** Reloads the market → core event map used to tag live trades. */
  refreshMarketIndex(): Promise<void>;
  markShuttingDown(): void;
}

export interface ServiceOverrides {
  /** A ready database (tests); default: opened from the config. */
  db?: Database;
  /** A ready world (tests); default: the simulated world for the configured seed. */
  world?: SimulatedWorld;
  logger?: Logger;
  /** Redis key prefix override (tests isolate themselves on a shared Redis). */
  redisKeyPrefix?: string;
  now?: () => number;
}

/**
 * Opens everything the process shares (database, infra, venues) and wires the
 * domain services. The caller owns shutdown through `closeServices`.
 */
export async function createServices(config: AppConfig, o: ServiceOverrides = {}): Promise<AppServices> {
  const logger = o.logger ?? createLogger(config.logLevel);
  const db = o.db ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir }));
  const metricsRef: { current?: Metrics } = {};
  const infra = await createInfra({
    redisUrl: config.redisUrl,
    keyPrefix: o.redisKeyPrefix ?? config.redisKeyPrefix,
    onDeliveryLag: (topic, ms) => metricsRef.current?.observePubSubLag(topic, ms),
    onError: (err) => logger.error({ err }, 'redis error'),
  });
  const metrics = createMetrics({ queryCount: () => db.queryCount() });
  metricsRef.current = metrics;
  const world = o.world ?? (await openSimulatedWorld(db.prisma, config.sim.seed));
  const catalog = new CatalogService(db.prisma, () => infra.pubsub.publish(CATALOG_CHANGED_TOPIC, { at: Date.now() }));
  const events = new EventsService(db.prisma, new ReadMemo(30_000));
  await infra.pubsub.subscribe(CATALOG_CHANGED_TOPIC, () => events.invalidate());
  const marketIndex = new Map<string, string>();
  const traderStats = new TraderStatsService(db.prisma);
  const tradeIngest = new TradeIngestService(db.prisma, infra.pubsub, (key) => marketIndex.get(key), {
    onError: (err) => logger.error({ err }, 'trade ingestion failed'),
    onStored: (trades) => traderStats.apply(trades),
  });
  let shuttingDown = false;
  const services: AppServices = {
    config,
    logger,
    metrics,
    db,
    infra,
    world,
    venues: world.clients,
    clientLimits: new ClientRateLimits(infra.rateLimiter, {
      discover: { limit: config.limits.discoverPerMinute, windowMs: 60_000 },
    }),
    events,
    catalog,
    tradeIngest,
    ops: new OpsService(
      db.prisma,
      {
        startedAt: new Date(),
        version: VERSION,
        database: db.kind,
        infra: infra.kind,
        openStreams: () => metrics.openStreams(),
        simTradeRate: config.sim.tradeRate,
        shuttingDown: () => shuttingDown,
      },
      o.now,
    ),
    feed: new FeedService(db.prisma, infra.pubsub, new SignedCursor(config.cursorSecret), o.now),
    comments: new CommentsService(db.prisma),
    follows: new FollowsService(db.prisma),
    traderStats,
    leaderboard: new LeaderboardService(db.prisma),
    social: new SocialService(db.prisma),
    refreshMarketIndex: async () => {
      const next = await catalog.marketIndex();
      marketIndex.clear();
      for (const [k, v] of next) marketIndex.set(k, v);
    },
    markShuttingDown: () => {
      shuttingDown = true;
    },
  };
  return services;
}

/** Seeds an empty database, then starts ingesting the venues' live trades. */
export async function startBackground(s: AppServices): Promise<void> {
  const empty = (await s.db.prisma.coreEvent.count()) === 0;
  if (empty) {
    const r = await s.catalog.sync(s.world);
    s.logger.info(r, 'seeded the demo world into an empty database');
  }
  await s.refreshMarketIndex();
  if (empty && s.config.sim.backfillTrades > 0) await backfillTrades(s, s.config.sim.backfillTrades);
  s.tradeIngest.start(Object.values(s.venues));
  if (s.config.sim.tradeRate > 0) s.world.startLiveTrades(s.config.sim.tradeRate);
}

/**
 * Loads each market's recent public trades so the leaderboard and trader
 * histories start with data. History is not news: it is stored, not published.
 */
async function backfillTrades(s: AppServices, perMarket: number): Promise<void> {
  const markets = await s.db.prisma.market.findMany({ select: { venue: true, venueMarketId: true } });
  const trades = (
    await Promise.all(markets.map((m) => s.venues[m.venue].getPublicTrades(m.venueMarketId, { limit: perMarket, offset: 0 })))
  ).flat();
  for (let i = 0; i < trades.length; i += 1000) {
    await s.db.prisma.trade.createMany({ data: trades.slice(i, i + 1000).map(toTradeRow), skipDuplicates: true });
  }
  const stats = await s.traderStats.rebuild();
  s.logger.info({ trades: trades.length, traders: stats.traders }, 'backfilled recent public trades');
}

/** Stops background work and closes shared resources, in dependency order. */
export async function closeServices(s: AppServices): Promise<void> {
  s.markShuttingDown();
  s.world.stopLiveTrades();
  await s.tradeIngest.stop();
  await s.infra.close();
  await s.db.close();
}
