import type { Database } from './db';
import { isDatabaseUnreachable } from './errors/database-unreachable';
import { absorbLogRecords, type Logger } from './http/logger';
import type { Metrics } from './http/metrics';
import { DependencyHealth, isRedisOutageError, type AvailabilityChange } from './infra';

/** How long after the last failed statement a successful one ends a database outage (ms). */
const DATABASE_RECOVERY_SETTLE_MS = 1_000;

/** What a client meets while a dependency is unreachable (said in the outage's log line). */
const WHILE_UNREACHABLE: Record<string, string> = {
  database: 'requests that need the database answer 503 unavailable with Retry-After',
  redis: 'cache reads miss, rate limits count in this process only, pub/sub reaches this process only',
};

/**
 * The database's and Redis's reachability, as this process sees it: each outage and each recovery
 * is logged once (an error line naming what clients meet meanwhile, an info line with its length)
 * and shown in the `dependency_available` metric. The database's is judged from every statement's
 * outcome (a failure that means it cannot be reached, or a success); Redis's by the infra's guard.
 * Warn and error lines that an outage's report already covers (a background job failing on every
 * tick) are counted in `dependency_errors_absorbed_total` instead of written.
 */
export function watchDependencies(
  db: Database,
  logger: Logger,
  metrics: { current?: Metrics },
): Record<'database' | 'redis', DependencyHealth> {
  const watch = (dependency: 'database' | 'redis') =>
    new DependencyHealth(dependency, {
      onChange: (c: AvailabilityChange) => {
        metrics.current?.dependencyAvailable(dependency, c.available);
        if (c.available) {
          logger.info({ dependency, downMs: c.downMs, absorbedErrors: c.absorbed }, `${dependency} recovered`);
        } else {
          logger.error(
            { dependency, err: c.error, meanwhile: WHILE_UNREACHABLE[dependency] },
            `${dependency} unreachable`,
          );
        }
      },
      onAbsorbed: () => metrics.current?.dependencyErrorAbsorbed(dependency),
      // The database's recovery is judged from statements: one that got through while the server
      // was going away must not end the outage. Redis's guard judges its own (a probe, connections).
      settleMs: dependency === 'database' ? DATABASE_RECOVERY_SETTLE_MS : 0,
    });
  const health = { database: watch('database'), redis: watch('redis') };
  db.observeStatements({
    succeeded: () => health.database.succeeded(),
    failed: (err) => {
      if (isDatabaseUnreachable(err)) health.database.failed(err);
    },
  });
  absorbLogRecords(logger, ({ err }) => {
    if (isDatabaseUnreachable(err)) return health.database.absorb();
    if (isRedisOutageError(err)) return health.redis.absorb();
    return false;
  });
  return health;
}
