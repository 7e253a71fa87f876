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
import { ProcessOwner } from './db/process-owner';
import { watchDependencies } from './dependency-watch';
import { createLogger, type Logger } from './http/logger';
import { createMetrics, type Metrics } from './http/metrics';
import { createInfra, createLeaseBackend, Leases, ReadMemo } from './infra';
import { Readiness, type MemoEntry, type ModuleDefinition, type Platform } from './kernel';
import { openSimulatedWorld } from './modules/ingestion';
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

/*
 * Opening the platform: what every module is built from and the process shares (database, infra,
 * leases, venues, the simulated world, rate-limit policies, memos, readiness). The composition root
 * (services.ts) opens it, then builds the modules over it.
 */

/** How long the database may take to answer readiness's `SELECT 1`. */
const DATABASE_PROBE_TIMEOUT_MS = 2_000;

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

/** The platform with what only the composition root uses: the shutdown flag and the venues' close. */
export type OpenedPlatform = Platform & { markShuttingDown(): void; closeVenues(): Promise<void> };

/** Opens the platform of `modules` for `config` (the overrides are the tests'). */
export async function openPlatform(
  config: AppConfig,
  overrides: ServiceOverrides,
  modules: readonly ModuleDefinition[],
): Promise<OpenedPlatform> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const db = overrides.db ?? (await openConfiguredDatabase(config, logger, overrides.whileSchemaMissing));
  const metricsRef: { current?: Metrics } = {};
  const health = watchDependencies(db, logger, metricsRef);
  const infra = await createInfra({
    redisUrl: config.redisUrl,
    keyPrefix: overrides.redisKeyPrefix ?? config.redisKeyPrefix,
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
      redisKeyPrefix: overrides.redisKeyPrefix ?? config.redisKeyPrefix,
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
  // Registered before any request or task can claim work in its name.
  const owner = new ProcessOwner(db.prisma, {
    ...config.processes,
    embedded: db.kind === 'pglite',
    onError: (err) => logger.warn({ err }, 'the process heartbeat failed; trying again'),
  });
  await owner.start();
  const world =
    overrides.world ??
    (await openSimulatedWorld(db.prisma, worldKeysOf(config.sim), { shareSecret: config.sim.shareSecret }));
  const { venues, venueSources, live } = openVenues(config, world, overrides, {
    rateLimiter: infra.rateLimiter,
    logger,
  });
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
    now: overrides.now ?? Date.now,
    // A memo's entries live at most READ_CACHE_TTL_MS when no invalidation reaches them (as the answer cache's).
    memo: (name, invalidatedBy, ttlMs = config.readCaches.ttlMs) => {
      const memo = new ReadMemo(ttlMs);
      memos.push({ name, memo, invalidatedBy });
      return memo;
    },
    memos: () => memos,
    shuttingDown: () => shuttingDown,
    readiness,
    leases,
    owner,
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
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    preparedStatements: config.databasePreparedStatements,
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
  overrides: ServiceOverrides,
  deps: LiveVenueDeps,
): { venues: Record<Venue, VenueClient>; venueSources: Record<Venue, 'sim' | 'live'>; live: LiveVenueClient[] } {
  const venues = { ...world.clients };
  const venueSources: Record<Venue, 'sim' | 'live'> = { venue_a: 'sim', venue_b: 'sim' };
  const wanted = VENUES.filter((v) => !overrides.venues?.[v] && config.venues.source[v] === 'live');
  const opened = createVenueClients(
    {
      ...config.venues,
      source: { venue_a: 'sim', venue_b: 'sim', ...Object.fromEntries(wanted.map((v) => [v, 'live'])) },
    },
    deps,
  );
  for (const v of VENUES) {
    const client = overrides.venues?.[v] ?? opened[v];
    if (client) {
      venues[v] = client;
      venueSources[v] = 'live';
    }
  }
  return { venues, venueSources, live: Object.values(opened) };
}
