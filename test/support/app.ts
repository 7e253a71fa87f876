import { randomUUID } from 'node:crypto';
import { loadConfig, type AppConfig } from '../../src/config';
import { signToken } from '../../src/auth/token-signer';
import { createLogger } from '../../src/http/logger';
import { startServer, type AppOptions, type RunningApp } from '../../src/server';
import {
  closeServices,
  createServices,
  startBackground,
  type AppServices,
  type ServiceOverrides,
} from '../../src/services';
import { SearchService } from '../../src/modules/search/search.service';
import { openTestDatabase } from './db';
import { bearer, userClient, type BearerHeader, type UserClient } from './http';

// The HTTP helpers, for tests that also start an app.
export { bearer, http, type BearerHeader, type HeaderMap, type HttpResult, type UserClient } from './http';

/** A running app of a test: its URL, services and config, and its users' credentials and clients. */
export interface TestApp {
  url: string;
  services: AppServices;
  config: AppConfig;
  running: RunningApp;
  /** The Redis key prefix its infra uses (random per app unless shared). */
  redisKeyPrefix: string;
  /** A user bearer token for `sub`. */
  token(sub: string): Promise<string>;
  walletToken(sub: string): Promise<string>;
  /** The `Authorization` header of a user bearer token for `sub`. */
  bearer(sub: string): Promise<BearerHeader>;
  /** The `Authorization` header of a wallet-auth token for `sub` (live execution). */
  walletBearer(sub: string): Promise<BearerHeader>;
  /** Requests to this app as the user `sub` (a fresh user bearer token on each). */
  as(sub: string): UserClient;
  /** Requests as `sub` with its wallet-auth token instead of the user token (live trading, step-up). */
  asWallet(sub: string): UserClient;
  close(): Promise<void>;
}

/**
 * Settings that turn the periodic background work off (withdrawal dispatch, order reconciler, route
 * intent purge, reward settlement; the process heartbeat beats once a minute): for tests that count SQL
 * statements, where a timer's query would count.
 */
export const NO_BACKGROUND_TIMERS: Readonly<Record<string, string>> = {
  WITHDRAWAL_DISPATCH_MS: '0',
  EXECUTION_RECONCILE_MS: '0',
  ROUTE_INTENT_PURGE_MS: '0',
  REWARDS_SETTLE_MS: '0',
  PROCESS_HEARTBEAT_MS: '60000',
  PROCESS_LEASE_MS: '600000',
};

/**
 * A real server on port 0 over a fresh database (PGlite, or a fresh PostgreSQL
 * schema when DATABASE_URL is set) and real infra (Redis when REDIS_URL is set,
 * under a random key prefix). The demo world is seeded; live trades are off.
 * `overrides` pins the world (seed, calendar, clock) and the services' clock (a
 * `PinnedWorld` passes as it is: `startTestApp({}, {}, pinnedWorld())`), and `venues` hands in venue
 * clients of the test's own (live, closed by the test);
 * `shareWith` makes a second instance of another app (its database and Redis
 * prefix, as two processes of one deployment): close it before that app. `logger`: the services'
 * logger (default: silent), for tests that read what was logged.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  opts: AppOptions = {},
  overrides: Pick<ServiceOverrides, 'world' | 'now' | 'venues' | 'logger'> & { shareWith?: TestApp } = {},
): Promise<TestApp> {
  const { shareWith, ...serviceOverrides } = overrides;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SIM_TRADE_RATE: '0',
    SIM_BACKFILL_TRADES: '0',
    ...(process.env.REDIS_URL && { REDIS_URL: process.env.REDIS_URL }),
    ...env,
  });
  const shared = shareWith?.services.db;
  // The sharer owns the database: this instance leaves it open when it closes.
  const db = shared ? { ...shared, close: async () => undefined } : await openTestDatabase();
  const redisKeyPrefix = shareWith?.redisKeyPrefix ?? `test:${randomUUID()}:`;
  const services = await createServices(config, {
    ...serviceOverrides,
    db,
    logger: serviceOverrides.logger ?? createLogger('silent'),
    redisKeyPrefix,
  });
  await startBackground(services);
  // Quiescent before the first request: the search index is built in the background.
  await services.get(SearchService).whenIdle();
  const running = await startServer(services, { port: 0, host: '127.0.0.1' }, opts);
  const token = (sub: string) => signToken(config.auth.user, sub);
  const walletToken = (sub: string) => signToken(config.auth.wallet, sub);
  const userBearer = async (sub: string) => bearer(await token(sub));
  return {
    url: running.url,
    services,
    config,
    running,
    redisKeyPrefix,
    token,
    walletToken,
    bearer: userBearer,
    walletBearer: async (sub) => bearer(await walletToken(sub)),
    as: (sub) => userClient(running.url, () => userBearer(sub)),
    asWallet: (sub) => userClient(running.url, async () => bearer(await walletToken(sub))),
    async close() {
      await running.stop();
      await closeServices(services);
    },
  };
}
