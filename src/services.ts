import { ClientRateLimits, type RatePolicy } from './auth/rate-limits';
import type { AppConfig } from './config';
import {
  embeddedTemplateFile,
  openDatabase,
  pendingMigrations,
  PROJECT_PRISMA_PATHS,
  readMigrationList,
  type Database,
} from './db';
import { watchDependencies } from './dependency-watch';
import { createLogger, type Logger } from './http/logger';
import { createMetrics, type Metrics } from './http/metrics';
import { createInfra, createLeaseBackend, Leases, ReadMemo } from './infra';
import {
  RequestLoaders,
  ServiceContainer,
  tokenName,
  type AppServices,
  type LoaderSet,
  type MemoEntry,
  type ModuleDefinition,
  type ModuleScope,
  type Platform,
  type Token,
  Readiness,
  type BackgroundTask,
} from './kernel';
import { HTTP_CACHE_ROUTES } from './modules/admin';
import { openSimulatedWorld } from './modules/ingestion';
import { MODULES } from './modules/registry';
import {
  createVenueClients,
  VENUES,
  worldKeysOf,
  type LiveVenueClient,
  type LiveVenueDeps,
  type SimulatedWorld,
  type Venue,
  type VenueClient,
} from './venues';
import { etagCacheControl } from '../rest-adapter/express-router';
import { ROUTES } from '../rest-adapter/routes';

/** How long a module's memoized reads live at most when no invalidation reaches them. */
const MEMO_TTL_MS = 30_000;
/** How long the database may take to answer readiness's `SELECT 1`. */
const DATABASE_PROBE_TIMEOUT_MS = 2_000;

export type { AppServices } from './kernel';

export interface ServiceOverrides {
  /** A ready database (tests); default: opened from the config. */
  db?: Database;
  /** A ready world (tests); default: the simulated world for the configured seed. */
  world?: SimulatedWorld;
  /** Ready venue clients (tests); each one given counts as a live venue whatever the config says. */
  venues?: Partial<Record<Venue, VenueClient>>;
  logger?: Logger;
  /** Redis key prefix override (tests isolate themselves on a shared Redis). */
  redisKeyPrefix?: string;
  now?: () => number;
  /** The modules to build (tests); default: the registry. */
  modules?: readonly ModuleDefinition[];
  /**
   * With `MIGRATE_ON_START=off` on a PostgreSQL database that has no migration applied: called
   * with the reason before start-up waits for another process to migrate it, and the function
   * it returns once the schema is there (the entry point answers readiness meanwhile). Unset:
   * start-up fails with that reason.
   */
  whileSchemaMissing?: (reason: string) => Promise<() => Promise<void>>;
}

/**
 * The composition root. Opens what the process shares (database, infra, venues:
 * the platform), builds every module's services in registry order, and
 * subscribes the modules' topic handlers and memos. The caller starts the
 * modules' background tasks with {@link startBackground} and owns shutdown
 * through {@link closeServices}.
 */
export async function createServices(config: AppConfig, o: ServiceOverrides = {}): Promise<AppServices> {
  const modules = o.modules ?? MODULES;
  const platform = await openPlatform(config, o, modules);
  try {
    return await buildModules(platform, modules);
  } catch (err) {
    // Nothing runs yet: close what was opened (a database handed in stays its owner's).
    await platform.leases.close();
    await platform.closeVenues();
    await platform.infra.close();
    if (!o.db) await platform.db.close();
    throw err;
  }
}

async function buildModules(platform: OpenedPlatform, modules: readonly ModuleDefinition[]): Promise<AppServices> {
  const container = new ServiceContainer();
  // The REST adapter's route table reaches the admin cache policy from here, not through a service.
  container.provide(HTTP_CACHE_ROUTES, { routes: () => ROUTES, etagCacheControl }, 'composition root');
  const declaredLoaders = new Set<LoaderSet<unknown>>(modules.flatMap((m) => m.loaders ?? []));
  const services: AppServices = {
    ...platform,
    modules,
    get: <T>(token: Token<T>) => container.get(token),
    requestLoaders: () => new RequestLoaders(services, declaredLoaders),
  };
  for (const m of modules) {
    // While a module is built it sees only the modules above it: the registry order is checked here.
    const scope: ModuleScope = { ...services, get: (token) => resolveFor(m, container, token) };
    for (const provider of m.services ?? []) container.provide(provider.token, await provider.build(scope), m.name);
  }
  await subscribeTopics(services, modules);
  return services;
}

function resolveFor<T>(m: ModuleDefinition, container: ServiceContainer, token: Token<T>): T {
  if (!container.has(token)) {
    throw new Error(`module ${m.name} needs ${tokenName(token)}, which no module above it in the registry provides`);
  }
  return container.get(token);
}

type OpenedPlatform = Platform & { markShuttingDown(): void; closeVenues(): Promise<void> };

async function openPlatform(
  config: AppConfig,
  o: ServiceOverrides,
  modules: readonly ModuleDefinition[],
): Promise<OpenedPlatform> {
  const logger = o.logger ?? createLogger(config.logLevel);
  const db = o.db ?? (await openConfiguredDatabase(config, logger, o.whileSchemaMissing));
  const metricsRef: { current?: Metrics } = {};
  const health = watchDependencies(db, logger, metricsRef);
  const infra = await createInfra({
    redisUrl: config.redisUrl,
    keyPrefix: o.redisKeyPrefix ?? config.redisKeyPrefix,
    onDeliveryLag: (topic, ms) => metricsRef.current?.observePubSubLag(topic, ms),
    onError: (err) => logger.error({ err }, 'redis error'),
    redisHealth: health.redis,
    commandTimeoutMs: config.redisCommandTimeoutMs,
  });
  const metrics = createMetrics({ queryCount: () => db.queryCount() });
  metricsRef.current = metrics;
  metrics.dependencyAvailable('database', health.database.available);
  if (infra.kind === 'redis') metrics.dependencyAvailable('redis', health.redis.available);
  const leases = new Leases(
    await createLeaseBackend({
      redisUrl: config.redisUrl,
      redisKeyPrefix: o.redisKeyPrefix ?? config.redisKeyPrefix,
      databaseUrl: config.databaseUrl,
      ttlMs: config.roles.leaseTtlMs,
      // The lease connection's errors while Redis is down are the outage's (logged once).
      onRedisError: (err) => {
        if (!health.redis.absorb()) logger.error({ err }, 'redis error (leases)');
      },
      redisCommandTimeoutMs: config.redisCommandTimeoutMs,
    }),
    {
      renewMs: Math.ceil(config.roles.leaseTtlMs / 3),
      onError: (err, lease) => logger.error({ err, lease }, 'lease or leased task failed'),
      onChange: (lease, held) => logger.info({ lease, held }, held ? 'took a lease' : 'lost a lease'),
    },
  );
  const world =
    o.world ?? (await openSimulatedWorld(db.prisma, worldKeysOf(config.sim), { shareSecret: config.sim.shareSecret }));
  const { venues, venueSources, live } = openVenues(config, world, o, { rateLimiter: infra.rateLimiter, logger });
  // Every venue simulated: the world's own grouping is the catalog; otherwise the catalog job matches.
  const allSimulated = VENUES.every((v) => venueSources[v] === 'sim');
  const policies: Record<string, RatePolicy> = {};
  for (const m of modules) {
    for (const [name, policy] of Object.entries(m.rateLimits?.(config) ?? {})) {
      if (name in policies) throw new Error(`module ${m.name}: rate-limit policy ${name} is declared twice`);
      policies[name] = policy;
    }
  }
  const memos: MemoEntry[] = [];
  let shuttingDown = false;
  const readiness = new Readiness(
    {
      database: () => answersWithin(db.prisma.$queryRawUnsafe('SELECT 1'), DATABASE_PROBE_TIMEOUT_MS),
      redis: infra.kind === 'redis' ? () => infra.ping() : undefined,
      pendingMigrations: () => pendingMigrations((sql) => db.prisma.$queryRawUnsafe(sql)),
      shuttingDown: () => shuttingDown,
      workers: config.roles.workers,
      leases: () => leases.held(),
    },
    (report) =>
      report.status === 'ready'
        ? logger.info({ readiness: report.status }, 'ready')
        : logger.warn({ readiness: report.status, reasons: report.reasons }, 'not ready'),
  );
  return {
    config,
    logger,
    metrics,
    db,
    infra,
    world,
    venues,
    venueSources,
    catalogSource: allSimulated ? world : { clients: venues },
    rateLimits: new ClientRateLimits(infra.rateLimiter, policies),
    now: o.now ?? Date.now,
    memo: (name, invalidatedBy, ttlMs = MEMO_TTL_MS) => {
      const memo = new ReadMemo(ttlMs);
      memos.push({ name, memo, invalidatedBy });
      return memo;
    },
    memos: () => memos,
    shuttingDown: () => shuttingDown,
    readiness,
    leases,
    markShuttingDown: () => {
      shuttingDown = true;
    },
    closeVenues: async () => {
      await Promise.all(live.map((c) => c.close()));
    },
  };
}

/** How often start-up looks again for a schema another process is to migrate. */
const SCHEMA_POLL_MS = 2_000;

/**
 * The embedded mode's ready database for this configuration (see embedded-template.ts), or
 * undefined where none applies: PostgreSQL, a live venue (its catalog is not the simulator's),
 * no migrating or seeding at start, a secret drawn per run, or templates turned off.
 */
export function embeddedTemplate(config: AppConfig): string | undefined {
  const simulated = Object.values(config.venues.source).every((s) => s === 'sim');
  if (config.databaseUrl || !config.embeddedTemplateDir || !simulated) return undefined;
  if (!config.roles.migrateOnStart || !config.roles.seedOnStart || config.sim.shareSecret) return undefined;
  return embeddedTemplateFile(config.embeddedTemplateDir, {
    // Names the world without revealing a secret (the file name is a hash of these settings).
    world: worldKeysOf(config.sim).fingerprint,
    backfillTrades: config.sim.backfillTrades,
  });
}

/**
 * Opens the configured database. With `MIGRATE_ON_START=off` it applies no migration.
 * On a PostgreSQL database with none of them it waits (with `whileSchemaMissing`) for
 * another process to migrate, or fails; PGlite admits no other process, so there it
 * fails. A schema that lacks only the newest migrations starts, and readiness says so.
 */
async function openConfiguredDatabase(
  config: AppConfig,
  logger: Logger,
  whileSchemaMissing: ServiceOverrides['whileSchemaMissing'],
): Promise<Database> {
  const template = embeddedTemplate(config);
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    ...(template && { startFrom: template }),
    migrate: config.roles.migrateOnStart,
    onMigrationsApplied: (names) => {
      if (names.length > 0) logger.info({ migrations: names }, 'applied migrations');
    },
  });
  if (config.roles.migrateOnStart) return db;
  const total = readMigrationList(PROJECT_PRISMA_PATHS.migrationsDir).migrationDirectories.length;
  const pending = () => pendingMigrations((sql) => db.prisma.$queryRawUnsafe(sql));
  try {
    let missing = await pending();
    if (missing.length === total) {
      const reason =
        `migrations: none of ${total} applied and MIGRATE_ON_START=off ` +
        '(run `npm run db:migrate:deploy`, or start one process with MIGRATE_ON_START=on)';
      if (!whileSchemaMissing || db.kind === 'pglite') throw new Error(reason);
      logger.warn({ reason }, 'waiting for the database schema');
      const done = await whileSchemaMissing(reason);
      while (missing.length === total) {
        await new Promise((resolve) => setTimeout(resolve, SCHEMA_POLL_MS));
        missing = await pending();
      }
      await done();
      logger.info('the database schema is there');
    }
    if (missing.length > 0) {
      logger.warn({ pending: missing }, 'migrations not applied (MIGRATE_ON_START=off): not ready until they are');
    }
    return db;
  } catch (err) {
    await db.close();
    throw err;
  }
}

/** Whether `probe` resolves (to anything) within `ms`. */
async function answersWithin(probe: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      probe.then(
        () => true,
        () => false,
      ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Each venue's client and where it comes from: a client handed in (tests), the
 * live HTTP client when the venue's source is `live`, else the simulated world's.
 */
function openVenues(
  config: AppConfig,
  world: SimulatedWorld,
  o: ServiceOverrides,
  deps: LiveVenueDeps,
): { venues: Record<Venue, VenueClient>; venueSources: Record<Venue, 'sim' | 'live'>; live: LiveVenueClient[] } {
  const venues = { ...world.clients };
  const venueSources: Record<Venue, 'sim' | 'live'> = { venue_a: 'sim', venue_b: 'sim' };
  const wanted = VENUES.filter((v) => !o.venues?.[v] && config.venues.source[v] === 'live');
  const opened = createVenueClients(
    {
      ...config.venues,
      source: { venue_a: 'sim', venue_b: 'sim', ...Object.fromEntries(wanted.map((v) => [v, 'live'])) },
    },
    deps,
  );
  for (const v of VENUES) {
    const client = o.venues?.[v] ?? opened[v];
    if (client) {
      venues[v] = client;
      venueSources[v] = 'live';
    }
  }
  return { venues, venueSources, live: Object.values(opened) };
}

/**
 * Subscribes every module's topic handlers and memos, after checking that each
 * topic a handler, a memo or a REST response cache waits for is one a module publishes.
 */
async function subscribeTopics(services: AppServices, modules: readonly ModuleDefinition[]): Promise<void> {
  const published = new Set(modules.flatMap((m) => m.topics?.publishes ?? []));
  const awaited = [
    ...modules.flatMap((m) => (m.topics?.subscribes ?? []).map((s) => ({ topic: s.topic, by: `module ${m.name}` }))),
    ...services.memos().map((m) => ({ topic: m.invalidatedBy, by: `memo ${m.name}` })),
    ...ROUTES.flatMap((r) => (r.cache ? [{ topic: r.cache.invalidatedBy, by: `route ${r.id}` }] : [])),
  ];
  const orphan = awaited.find((a) => !published.has(a.topic));
  if (orphan) throw new Error(`${orphan.by} waits for topic ${orphan.topic}, which no module publishes`);
  const { pubsub } = services.infra;
  for (const m of modules) {
    for (const s of m.topics?.subscribes ?? []) {
      await pubsub.subscribe(s.topic, (message) => {
        void Promise.resolve(s.handle(services, message)).catch((err: unknown) =>
          services.logger.error({ err, topic: s.topic, module: m.name }, 'topic handler failed'),
        );
      });
    }
  }
  for (const { memo, invalidatedBy } of services.memos())
    await pubsub.subscribe(invalidatedBy, () => memo.invalidate());
}

/** The lease of an exclusive task: one name per task across the deployment. */
function leaseName(m: ModuleDefinition, task: BackgroundTask): string {
  return `${m.name}:${task.name}`;
}

/**
 * Starts every module's background tasks, in registry order (the catalog is seeded
 * before trades flow). A per-process task starts here; an exclusive one is handed
 * to its lease (it starts here when this process takes the lease, now or when its
 * holder dies), and not at all with `WORKERS=off`. A task's `ready` is start-up
 * work readiness waits for.
 */
export async function startBackground(services: AppServices): Promise<void> {
  const { config, leases, readiness, logger } = services;
  for (const m of services.modules) {
    for (const task of m.tasks ?? []) {
      if (task.exclusive) {
        if (!config.roles.workers) continue;
        await leases.hold(leaseName(m, task), {
          start: () => task.start?.(services),
          stop: () => task.stop?.(services),
        });
        continue;
      }
      await task.start?.(services);
      if (task.ready) {
        const done = readiness.begin(task.name);
        task
          .ready(services)
          .catch((err: unknown) => logger.error({ err, module: m.name, task: task.name }, 'start-up work failed'))
          .finally(done);
      }
    }
  }
}

/**
 * Stops the modules' background tasks in reverse registry order (each module's
 * in reverse too), then closes the platform: the infra, then the database.
 * A task that fails to stop is logged, and the others still stop.
 */
export async function closeServices(services: AppServices): Promise<void> {
  services.markShuttingDown();
  const failures: unknown[] = [];
  for (const m of [...services.modules].reverse()) {
    for (const task of [...(m.tasks ?? [])].reverse()) {
      try {
        // An exclusive task stops where it runs, and its lease is given up for another process to take.
        if (task.exclusive) await services.leases.release(leaseName(m, task));
        else await task.stop?.(services);
      } catch (err) {
        services.logger.error({ err, module: m.name, task: task.name }, 'a background task failed to stop');
        failures.push(err);
      }
    }
  }
  await services.leases.close();
  // The live venues' pollers and pools: no trade arrives once the tasks have stopped.
  await services.closeVenues();
  await services.infra.close();
  await services.db.close();
  if (failures.length > 0) throw new AggregateError(failures, 'some background tasks failed to stop');
}
