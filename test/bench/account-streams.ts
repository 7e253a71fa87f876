/**
 * Account stream latency (`npm run bench:account-streams`): how long after its commit an account
 * change reaches a client of `GET /stream/account`.
 *
 * The server runs as in production (the build, `node dist/main.js`); BENCH_ACCOUNT_USERS users
 * each hold an account stream, and paper buys of one contract (`POST /execute`, simulation) are
 * sent for them, BENCH_ACCOUNT_CONCURRENCY at a time, for BENCH_ACCOUNT_ORDERS orders. Every
 * update carries `at`, the server's clock just after the commit that made it (the announcer stamps
 * it in the commit hook); the client notes when it parsed the message. Commit → receipt is the
 * difference, p50/p99 over every update (order, fill, position, balance). Server and client share
 * the machine's clock.
 *
 * Baselines: a bare pub/sub round trip in this process on the same backend (Redis with REDIS_URL,
 * else in-process), publish → own listener, p50/p99 over BENCH_ACCOUNT_PINGS messages; and a bare
 * HTTP round trip to the same server (`GET /health`, 200 of them), the floor of a server → client
 * hop on this machine at this moment.
 *
 * Environment: BENCH_ACCOUNT_USERS (default 20), BENCH_ACCOUNT_ORDERS (default 300),
 * BENCH_ACCOUNT_CONCURRENCY (default 4), BENCH_ACCOUNT_PINGS (default 2000), BENCH_STARTUP_TIMEOUT
 * (s, default 120); BENCH_SERVER_CMD, DATABASE_URL / REDIS_URL as for `npm run bench`. Writes
 * test/bench/results/account-streams.json.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createParser } from 'eventsource-parser';
import { signToken } from '../../src/auth/token-signer';
import { loadConfig } from '../../src/config';
import { createInfra } from '../../src/infra';
import { startAppServer, type AppServer } from './server-process';
import { percentile } from './stats';

export interface AccountStreamsSettings {
  users: number;
  orders: number;
  concurrency: number;
  pings: number;
  startupTimeoutMs: number;
}

export interface AccountStreamsReport {
  settings: AccountStreamsSettings;
  database: 'embedded' | 'DATABASE_URL';
  pubsub: 'redis' | 'memory';
  loadAvg1m: number;
  orders: number;
  failedOrders: number;
  updates: number;
  byKind: Record<string, number>;
  /** Commit → client receipt, ms. */
  commitToClientP50: number;
  commitToClientP99: number;
  commitToClientMax: number;
  /** Bare pub/sub publish → listener in one process, ms. */
  pubsubP50: number;
  pubsubP99: number;
  /** A bare HTTP round trip to the same server (`GET /health`), ms: the machine's floor for a server → client hop. */
  httpP50: number;
  httpP99: number;
}

function log(message: string): void {
  process.stderr.write(`[bench:account-streams] ${message}\n`);
}

/** A quiet server: the periodic work off, paper orders unlimited. */
const SERVER_ENV = {
  WITHDRAWAL_DISPATCH_MS: '0',
  EXECUTION_RECONCILE_MS: '0',
  ROUTE_INTENT_PURGE_MS: '0',
  REWARDS_SETTLE_MS: '0',
  SIMULATION_RATE_LIMIT: '1000000',
  PAPER_STARTING_BALANCE_USD: '1000000000',
};

async function someMarket(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/events?sourceType=matched&pageSize=20`);
  const page = (await res.json()) as { data?: { markets: { venue: string; marketId: string; status: string }[] }[] };
  // The first active market an anonymous simulation fills on (nothing stored): a database shared
  // with other data may list markets the simulated venues do not know.
  for (const event of page.data ?? []) {
    for (const market of event.markets.filter((m) => m.status === 'active')) {
      if (await paperBuy(baseUrl, undefined, market.marketId)) return market.marketId;
    }
  }
  throw new Error('no matched event with an active market that fills: is the database seeded?');
}

/** An account stream that records each update's commit → receipt time. */
async function holdStream(
  baseUrl: string,
  token: string,
  seen: (kind: string, lagMs: number) => void,
): Promise<() => void> {
  const ctrl = new AbortController();
  const res = await fetch(`${baseUrl}/stream/account`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: ctrl.signal,
  });
  if (res.status !== 200) throw new Error(`GET /stream/account answered ${res.status}`);
  const parser = createParser({
    onEvent: (m) => {
      const received = Date.now();
      const { kind, at } = JSON.parse(m.data) as { kind: string; at: string };
      seen(kind, received - Date.parse(at));
    },
  });
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
        parser.feed(decoder.decode(chunk, { stream: true }));
    } catch {
      // closed
    }
  })();
  return () => {
    ctrl.abort();
    void res.body?.cancel().catch(() => undefined);
  };
}

/** A 1-contract simulated buy (`token` undefined: anonymous, nothing stored); whether it completed. */
async function paperBuy(baseUrl: string, token: string | undefined, marketId: string): Promise<boolean> {
  const res = await fetch(`${baseUrl}/execute`, {
    method: 'POST',
    headers: {
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({ marketId, side: 'buy', outcome: 'yes', size: 1, mode: 'simulation' }),
  });
  const text = await res.text();
  return res.status === 200 && text.includes('event: completed');
}

/** `GET /health` round trips, ms each. */
async function httpRoundTrips(baseUrl: string, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const t0 = performance.now();
    await (await fetch(`${baseUrl}/health`)).arrayBuffer();
    times.push(performance.now() - t0);
  }
  return times;
}

/** Publish → own listener on a fresh pub/sub of the configured backend, ms per message. */
async function pubsubRoundTrips(env: NodeJS.ProcessEnv, n: number): Promise<number[]> {
  const infra = await createInfra({ redisUrl: env.REDIS_URL, keyPrefix: `bench:${randomUUID()}:` });
  try {
    const topic = `account#bench-${randomUUID()}`;
    const times: number[] = [];
    let arrived: (() => void) | undefined;
    const unsubscribe = await infra.pubsub.subscribe(topic, () => arrived?.());
    for (let i = 0; i < n; i += 1) {
      const t0 = performance.now();
      const got = new Promise<void>((resolve) => (arrived = resolve));
      await infra.pubsub.publish(topic, { i });
      await got;
      times.push(performance.now() - t0);
    }
    await unsubscribe();
    return times;
  } finally {
    await infra.close();
  }
}

export async function runAccountStreamsBench(
  settings: AccountStreamsSettings,
  env: NodeJS.ProcessEnv,
): Promise<AccountStreamsReport> {
  let server: AppServer | undefined;
  const closers: (() => void)[] = [];
  try {
    server = await startAppServer({
      command: env.BENCH_SERVER_CMD || undefined,
      startupTimeoutMs: settings.startupTimeoutMs,
      env,
      extraEnv: SERVER_ENV,
    });
    const base = server.baseUrl;
    const marketId = await someMarket(base);
    const run = randomUUID().slice(0, 8);
    const auth = loadConfig(env).auth.user;
    const tokens = await Promise.all(
      Array.from({ length: settings.users }, (_, i) => signToken(auth, `bench-acct-${run}-${i}`, { ttlSeconds: 3600 })),
    );
    const lags: number[] = [];
    const byKind: Record<string, number> = {};
    for (const token of tokens)
      closers.push(
        await holdStream(base, token, (kind, lag) => {
          lags.push(lag);
          byKind[kind] = (byKind[kind] ?? 0) + 1;
        }),
      );
    // Warm-up: one order per user (the paper grant, the position rows, the compiled statements).
    await Promise.all(tokens.map((t) => paperBuy(base, t, marketId)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    lags.length = 0;
    for (const k of Object.keys(byKind)) delete byKind[k];
    log(`${settings.users} streams open; ${settings.orders} paper buys, ${settings.concurrency} at a time`);
    let next = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: settings.concurrency }, async () => {
        while (next < settings.orders) {
          const i = next++;
          if (!(await paperBuy(base, tokens[i % tokens.length], marketId))) failed += 1;
        }
      }),
    );
    // The last updates are in flight to their clients a little after the last answer.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sorted = Float64Array.from(lags).sort();
    const pings = Float64Array.from(await pubsubRoundTrips(env, settings.pings)).sort();
    const hops = Float64Array.from(await httpRoundTrips(base, 200)).sort();
    const round = (v: number) => Math.round(v * 100) / 100;
    return {
      settings,
      database: server.database,
      pubsub: env.REDIS_URL ? 'redis' : 'memory',
      loadAvg1m: round(os.loadavg()[0]),
      orders: settings.orders,
      failedOrders: failed,
      updates: lags.length,
      byKind: { ...byKind },
      commitToClientP50: round(percentile(sorted, 50)),
      commitToClientP99: round(percentile(sorted, 99)),
      commitToClientMax: round(sorted[sorted.length - 1] ?? 0),
      pubsubP50: round(percentile(pings, 50)),
      pubsubP99: round(percentile(pings, 99)),
      httpP50: round(percentile(hops, 50)),
      httpP99: round(percentile(hops, 99)),
    };
  } finally {
    for (const close of closers) close();
    await server?.stop();
  }
}

export function formatAccountStreamsReport(r: AccountStreamsReport): string {
  return [
    `account streams (${r.database}, pub/sub ${r.pubsub}, load ${r.loadAvg1m}):`,
    `  ${r.orders} paper buys (${r.failedOrders} failed), ${r.updates} updates ${JSON.stringify(r.byKind)}`,
    `  commit → client: p50 ${r.commitToClientP50} ms, p99 ${r.commitToClientP99} ms, max ${r.commitToClientMax} ms`,
    `  bare pub/sub round trip: p50 ${r.pubsubP50} ms, p99 ${r.pubsubP99} ms`,
    `  bare HTTP round trip (GET /health): p50 ${r.httpP50} ms, p99 ${r.httpP99} ms`,
  ].join('\n');
}

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw.trim() === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got "${raw}")`);
  return value;
}

if (require.main === module) {
  const settings: AccountStreamsSettings = {
    users: Math.round(envNumber('BENCH_ACCOUNT_USERS', 20)),
    orders: Math.round(envNumber('BENCH_ACCOUNT_ORDERS', 300)),
    concurrency: Math.round(envNumber('BENCH_ACCOUNT_CONCURRENCY', 4)),
    pings: Math.round(envNumber('BENCH_ACCOUNT_PINGS', 2000)),
    startupTimeoutMs: envNumber('BENCH_STARTUP_TIMEOUT', 120) * 1000,
  };
  runAccountStreamsBench(settings, process.env).then(
    (report) => {
      process.stdout.write(`${formatAccountStreamsReport(report)}\n`);
      const dir = path.join(__dirname, 'results');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'account-streams.json'), `${JSON.stringify(report, null, 2)}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      log(`error: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
