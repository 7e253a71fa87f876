import { randomUUID } from 'node:crypto';
import { loadConfig, type AppConfig } from '../../src/config';
import { signToken } from '../../src/auth/token-signer';
import { createLogger } from '../../src/http/logger';
import { startServer, type AppOptions, type RunningApp } from '../../src/server';
import { closeServices, createServices, startBackground, type AppServices } from '../../src/services';
import { openTestDatabase } from './db';

export interface TestApp {
  url: string;
  services: AppServices;
  config: AppConfig;
  running: RunningApp;
  /** A user bearer token for `sub`. */
  token(sub: string): Promise<string>;
  walletToken(sub: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * A real server on port 0 over a fresh database (PGlite, or a fresh PostgreSQL
 * schema when DATABASE_URL is set) and real infra (Redis when REDIS_URL is set,
 * under a random key prefix). The demo world is seeded; live trades are off.
 */
export async function startTestApp(env: Record<string, string> = {}, opts: AppOptions = {}): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SIM_TRADE_RATE: '0',
    SIM_BACKFILL_TRADES: '0',
    ...(process.env.REDIS_URL && { REDIS_URL: process.env.REDIS_URL }),
    ...env,
  });
  const db = await openTestDatabase();
  const services = await createServices(config, {
    db,
    logger: createLogger('silent'),
    redisKeyPrefix: `test:${randomUUID()}:`,
  });
  await startBackground(services);
  const running = await startServer(services, { port: 0, host: '127.0.0.1' }, opts);
  return {
    url: running.url,
    services,
    config,
    running,
    token: (sub) => signToken(config.auth.user, sub),
    walletToken: (sub) => signToken(config.auth.wallet, sub),
    async close() {
      await running.stop();
      await closeServices(services);
    },
  };
}

/** GET/POST helper returning status, headers and parsed JSON. */
export async function http(
  url: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  const res = await fetch(url, { ...init, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}
