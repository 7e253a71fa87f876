import { ClientRateLimits } from './auth/rate-limits';
import type { AppConfig } from './config';
import { openDatabase, type Database } from './db';
import { createLogger, type Logger } from './http/logger';
import { SignedCursor } from './http/signed-cursor';
import { createMetrics, type Metrics } from './http/metrics';
import { createInfra, ReadMemo, type Infra } from './infra';
import { CATALOG_CHANGED_TOPIC, EventsService } from './modules/events';
import { ApiKeyGate, ApiKeysService } from './modules/api-keys';
import { ComparisonsService } from './modules/comparisons';
import { MarketDataService } from './modules/market-data';
import { UsageRecorder, UsageService } from './modules/usage';
import { HistoryService } from './modules/charts';
import { MarketsService } from './modules/markets';
import { createEmbedder, EmbeddingStore, SEARCH_INDEX_CHANGED_TOPIC, SearchService } from './modules/search';
import { CommentsService } from './modules/comments';
import {
  HttpPushClient,
  NotificationsService,
  SimulatedPushClient,
  type NewNotification,
} from './modules/notifications';
import { FeedService } from './modules/feed';
import {
  ReferralsService,
  RewardClaimsService,
  RewardsAccrual,
  RewardsReconciliation,
  RewardsService,
} from './modules/rewards';
import { LinkProofService, createIdentityProvider } from './modules/linkproof';
import { CachePolicyService } from './modules/admin';
import { etagCacheControl } from '../rest-adapter/express-router';
import { ROUTES } from '../rest-adapter/routes';
import {
  CatalogService,
  TradeIngestService,
  inTradeKeyOrder,
  openSimulatedWorld,
  toTradeRow,
} from './modules/ingestion';
import { OpsService } from './modules/ops';
import { AccountsService } from './modules/accounts';
import {
  FundingService,
  IdempotencyService,
  WithdrawalsService,
  createPaymentsClient,
  withdrawalNotification,
} from './modules/funding';
import { LedgerService, type FeeListener } from './modules/ledger';
import { MarketBooks, RoutingService } from './modules/routing';
import { ExecutionService, ExecutionServiceClient, TradeRecorder } from './modules/execution';
import { WalletsService, createChainBalancesClient, createWalletProvider } from './modules/wallets';
import { ANNOUNCE_SWEEP_MS, IndexerWebhookService, OutcomeTokenIndex, PaymentWebhookService } from './modules/webhooks';
import { CopytradeService } from './modules/social/copytrade';
import { FollowsService } from './modules/social/follows';
import { DiscoveryService, HomeService, ProductMetricsService, UserStatsService } from './modules/social/home';
import { FollowTradesService, LeaderboardService, TraderStatsService } from './modules/social/traders';
import { MarksService, PortfolioService, PortfolioValuationService, TradeHistoryService } from './modules/portfolio';
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
  /** The balance ledger every money movement posts to. */
  ledger: LedgerService;
  /** Cost preview across venues and routing to a venue (quoted intents). */
  routing: RoutingService;
  /** Runs orders (simulation and live) and streams their progress. */
  execution: ExecutionService;
  accounts: AccountsService;
  wallets: WalletsService;
  funding: FundingService;
  withdrawals: WithdrawalsService;
  paymentWebhook: PaymentWebhookService;
  indexerWebhook: IndexerWebhookService;
  feed: FeedService;
  /** Rewards: the caller's ledger and releases, claims, referrals, and the admin reconciliation. */
  rewards: RewardsService;
  rewardClaims: RewardClaimsService;
  referrals: ReferralsService;
  /** The FeeListener execution calls inside each fee's transaction (accrues cashback, referral shares, points). */
  rewardsAccrual: RewardsAccrual;
  rewardsReconciliation: RewardsReconciliation;
  linkProof: LinkProofService;
  /** The cache lifetimes in force (admin). */
  cachePolicy: CachePolicyService;
  history: HistoryService;
  markets: MarketsService;
  search: SearchService;
  comments: CommentsService;
  notifications: NotificationsService;
  follows: FollowsService;
  traderStats: TraderStatsService;
  leaderboard: LeaderboardService;
  social: DiscoveryService;
  /** The follow-trade bubbles of an event's chart. */
  followTrades: FollowTradesService;
  userStats: UserStatsService;
  productMetrics: ProductMetricsService;
  /** Copies a followed trader's trade through execution under the risk caps. */
  copytrade: CopytradeService;
  /** The home screen: followed traders' activity, trending events, the positions summary. */
  home: HomeService;
  /** Portfolio reads over the trading rows and linked wallets; marks from the venues' books. */
  portfolio: PortfolioService;
  portfolioValuation: PortfolioValuationService;
  tradeHistory: TradeHistoryService;
  marks: MarksService;
  /** Market-data surface: API keys, the access gate, usage counting and reports, catalog reads, comparisons. */
  apiKeys: ApiKeysService;
  apiKeyGate: ApiKeyGate;
  usageRecorder: UsageRecorder;
  usage: UsageService;
  marketData: MarketDataService;
  comparisons: ComparisonsService;
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
  const db =
    o.db ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir }));
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
  const search = new SearchService(
    db.prisma,
    new EmbeddingStore(db.prisma, db.hasVector),
    createEmbedder(config.embeddings),
    {
      onIndexChanged: () => infra.pubsub.publish(SEARCH_INDEX_CHANGED_TOPIC, { at: Date.now() }),
      onError: (err) => logger.warn({ err }, 'search index refresh failed'),
      now: o.now,
    },
  );
  await infra.pubsub.subscribe(SEARCH_INDEX_CHANGED_TOPIC, () => search.invalidate());
  const catalog = new CatalogService(db.prisma, async () => {
    await infra.pubsub.publish(CATALOG_CHANGED_TOPIC, { at: Date.now() });
    // Search vectors follow the catalog, in the background (only changed texts are embedded).
    search.scheduleRefresh();
  });
  const eventsMemo = new ReadMemo(30_000);
  const events = new EventsService(db.prisma, eventsMemo);
  await infra.pubsub.subscribe(CATALOG_CHANGED_TOPIC, () => events.invalidate());
  const marketsMemo = new ReadMemo(30_000);
  const markets = new MarketsService(db.prisma, world.clients, marketsMemo);
  await infra.pubsub.subscribe(CATALOG_CHANGED_TOPIC, () => markets.invalidate());
  const marketDataCursors = new SignedCursor(config.cursorSecret);
  const marketDataMemo = new ReadMemo(30_000);
  const comparisonsMemo = new ReadMemo(30_000);
  const marketData = new MarketDataService(db.prisma, marketDataCursors, marketDataMemo);
  const comparisons = new ComparisonsService(db.prisma, marketDataCursors, comparisonsMemo);
  await infra.pubsub.subscribe(CATALOG_CHANGED_TOPIC, () => {
    marketData.invalidate();
    comparisons.invalidate();
  });
  const apiKeys = new ApiKeysService(db.prisma, infra.pubsub, o.now);
  await apiKeys.start();
  const usageRecorder = new UsageRecorder(db.prisma, {
    flushIntervalMs: config.marketData.usageFlushMs,
    now: o.now,
    onLastUsed: (lastUsed) => apiKeys.touch(lastUsed),
    onError: (err) => logger.error({ err }, 'API usage flush failed'),
  });
  usageRecorder.start();
  const marketIndex = new Map<string, string>();
  const traderStats = new TraderStatsService(db.prisma);
  const notifications = new NotificationsService(
    db.prisma,
    config.push.url ? new HttpPushClient(config.push.url, config.push.apiKey) : new SimulatedPushClient(),
    (err) => logger.warn({ err }, 'push delivery failed'),
  );
  // Notifying never fails the write that caused it.
  const notify = (items: NewNotification[]) =>
    notifications.notify(items).catch((err: unknown) => logger.error({ err }, 'storing notifications failed'));
  const follows = new FollowsService(db.prisma);
  // Announcement steps run one by one, each whatever happened to the others; they throw (no
  // swallowing here) so the indexer webhook's durable record runs a failed step again.
  const tradeIngest = new TradeIngestService(db.prisma, infra.pubsub, (key) => marketIndex.get(key), {
    onError: (err) => logger.error({ err }, 'trade ingestion failed'),
    onStepError: (step, err) => logger.error({ err, step }, 'announcing stored trades failed'),
    applyStats: (trades) => traderStats.apply(trades),
    notifyFollowers: async (trades) => notifications.notify(await follows.tradeNotifications(trades)),
  });
  const ledger = new LedgerService(db.prisma);
  const idempotency = new IdempotencyService(db.prisma, o.now);
  const payments = createPaymentsClient(config);
  const wallets = new WalletsService(
    db.prisma,
    createWalletProvider(config),
    createChainBalancesClient(config),
    ledger,
  );
  const withdrawals = new WithdrawalsService(db.prisma, ledger, idempotency, payments, logger, (userId, w) => {
    void notify([withdrawalNotification(userId, w)]);
  });
  const rewards = new RewardsService(db.prisma, notify, o.now, logger);
  const rewardsAccrual = new RewardsAccrual(config.rewards, config.rewards.holdSeconds);
  const outcomeTokens = new OutcomeTokenIndex(db.prisma);
  await infra.pubsub.subscribe(CATALOG_CHANGED_TOPIC, () => outcomeTokens.invalidate());
  const tradeHistory = new TradeHistoryService(db.prisma, o.now);
  const history = new HistoryService(world.clients, infra.cache, {
    now: o.now,
    onVenueError: (venue, err) => logger.warn({ err, venue }, 'venue price history failed'),
  });
  let shuttingDown = false;
  const books = new MarketBooks(world.clients);
  const routing = new RoutingService(db.prisma, events, books, {
    fees: config.trading.fees,
    routeTtlSeconds: config.trading.routeTtlSeconds,
    now: o.now,
  });
  /** Told of every trading fee inside the transaction that charges it: rewards accrue with the fee. */
  const feeListeners: FeeListener[] = [rewardsAccrual];
  const execution = new ExecutionService({
    prisma: db.prisma,
    markets,
    events,
    books,
    venues: world.clients,
    recorder: new TradeRecorder(db.prisma, ledger, feeListeners),
    idempotency,
    client: config.executionServiceUrl
      ? new ExecutionServiceClient(config.executionServiceUrl, config.upstreams.timeoutMs)
      : null,
    fees: config.trading.fees,
    pollMs: config.trading.execution.pollMs,
    waitMs: config.trading.execution.waitMs,
    notify,
    now: o.now ?? Date.now,
    logger,
  });
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
      // Keyed by user id (these routes require a bearer token).
      authSetup: { limit: config.limits.authSetupPerMinute, windowMs: 60_000 },
      authMe: { limit: config.limits.authMePerMinute, windowMs: 60_000 },
      onramp: { limit: config.limits.onrampPerMinute, windowMs: 60_000 },
      rewardsClaim: { limit: config.limits.rewardsClaimPerMinute, windowMs: 60_000 },
      copytrade: { limit: config.copytrade.perMinute, windowMs: 60_000 },
    }),
    events,
    catalog,
    tradeIngest,
    ledger,
    routing,
    execution,
    accounts: new AccountsService(db.prisma, wallets),
    wallets,
    funding: new FundingService(db.prisma, payments, idempotency),
    withdrawals,
    paymentWebhook: new PaymentWebhookService(db.prisma, ledger, withdrawals, config.webhooks.paymentSecret, o.now),
    indexerWebhook: new IndexerWebhookService(
      db.prisma,
      db.sql,
      outcomeTokens,
      tradeIngest,
      config.webhooks.indexerSecret,
      logger,
      o.now,
    ),
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
    rewards,
    rewardClaims: new RewardClaimsService(ledger, idempotency, rewards, notify, o.now),
    referrals: new ReferralsService(db.prisma),
    rewardsAccrual,
    rewardsReconciliation: new RewardsReconciliation(db.prisma, rewardsAccrual, config.rewards, o.now),
    linkProof: new LinkProofService(db.prisma, createIdentityProvider(config, o.now), o.now),
    cachePolicy: new CachePolicyService({
      store: infra.kind,
      etagMaxAgeSeconds: config.etagMaxAgeSeconds,
      etagCacheControl,
      routes: () => ROUTES,
      memos: [
        { name: 'events', memo: eventsMemo, invalidatedBy: CATALOG_CHANGED_TOPIC },
        { name: 'markets', memo: marketsMemo, invalidatedBy: CATALOG_CHANGED_TOPIC },
        { name: 'marketData', memo: marketDataMemo, invalidatedBy: CATALOG_CHANGED_TOPIC },
        { name: 'comparisons', memo: comparisonsMemo, invalidatedBy: CATALOG_CHANGED_TOPIC },
      ],
    }),
    history,
    markets,
    search,
    comments: new CommentsService(db.prisma, notify),
    notifications,
    follows,
    traderStats,
    leaderboard: new LeaderboardService(db.prisma),
    social: new DiscoveryService(db.prisma),
    followTrades: new FollowTradesService(db.prisma, events, history),
    userStats: new UserStatsService(db.prisma),
    productMetrics: new ProductMetricsService(db.prisma, o.now),
    copytrade: new CopytradeService({
      prisma: db.prisma,
      execution,
      markets,
      events,
      books,
      caps: {
        maxTradeMicros: BigInt(config.copytrade.maxTradeUsd) * 1_000_000n,
        maxDailyMicros: BigInt(config.copytrade.maxDailyUsd) * 1_000_000n,
        maxOpenPositions: config.copytrade.maxOpenPositions,
        allowedCategories: config.copytrade.allowedCategories,
        blockedCategories: config.copytrade.blockedCategories,
        maxDeviationMicros: BigInt(Math.round(config.copytrade.maxPriceDeviation * 1e6)),
      },
    }),
    home: new HomeService(db.prisma, events),
    portfolio: new PortfolioService(db.prisma),
    portfolioValuation: new PortfolioValuationService(wallets, ledger, tradeHistory, logger),
    tradeHistory,
    marks: new MarksService(world.clients, infra.cache, o.now),
    apiKeys,
    apiKeyGate: new ApiKeyGate(apiKeys, infra.rateLimiter, usageRecorder, {
      rateLimit: config.marketData.rateLimit,
      now: o.now,
    }),
    usageRecorder,
    usage: new UsageService(db.prisma, usageRecorder, o.now),
    marketData,
    comparisons,
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
  // Vectors missing or stale in a database seeded earlier (a sync above already asked).
  if (!empty) s.search.scheduleRefresh();
  if (empty && s.config.sim.backfillTrades > 0) await backfillTrades(s, s.config.sim.backfillTrades);
  s.tradeIngest.start(Object.values(s.venues));
  s.indexerWebhook.start(ANNOUNCE_SWEEP_MS);
  s.withdrawals.start(s.config.withdrawals.dispatchMs);
  s.execution.startReconciler(s.config.trading.execution.reconcileMs);
  s.rewards.start(s.config.rewards.settleMs);
  if (s.config.sim.tradeRate > 0) s.world.startLiveTrades(s.config.sim.tradeRate);
}

/**
 * Loads each market's recent public trades so the leaderboard and trader
 * histories start with data. History is not news: it is stored, not published.
 */
async function backfillTrades(s: AppServices, perMarket: number): Promise<void> {
  const markets = await s.db.prisma.market.findMany({ select: { venue: true, venueMarketId: true } });
  const trades = (
    await Promise.all(
      markets.map((m) => s.venues[m.venue].getPublicTrades(m.venueMarketId, { limit: perMarket, offset: 0 })),
    )
  ).flat();
  for (let i = 0; i < trades.length; i += 1000) {
    await s.db.prisma.trade.createMany({
      data: inTradeKeyOrder(trades.slice(i, i + 1000)).map(toTradeRow),
      skipDuplicates: true,
    });
  }
  const stats = await s.traderStats.rebuild();
  s.logger.info({ trades: trades.length, traders: stats.traders }, 'backfilled recent public trades');
}

/** Stops background work and closes shared resources, in dependency order. */
export async function closeServices(s: AppServices): Promise<void> {
  s.markShuttingDown();
  s.world.stopLiveTrades();
  await s.withdrawals.stop();
  await s.rewards.stop();
  await s.indexerWebhook.stop();
  await s.tradeIngest.stop();
  // Orders in flight finish (and commit) before the database closes.
  await s.execution.stop();
  // Buffered API usage is written before the database closes: a graceful stop loses no count.
  await s.usageRecorder.stop();
  await s.search.whenIdle();
  await s.infra.close();
  await s.db.close();
}
