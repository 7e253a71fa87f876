/**
 * Stored simulated executions per second (alone: `npm run bench:execute`; the
 * lead's `npm run bench` calls {@link runExecuteBench}): N concurrent clients,
 * each a bearer trader of its own, send `POST /execute` (a 1-contract
 * simulated buy on an active venue_b market, so the fee path runs) and read
 * the stream to its `completed` event, one after the other, for a fixed time.
 * Each completed request committed its order, fills, paper position, paper
 * ledger movements and a notification.
 *
 * Statements per execution: the server's `db_queries_total` (`/metrics`)
 * before and after the measured window, over the executions in it, with the
 * periodic background work off so only requests count.
 *
 * On PostgreSQL the service and the floor (execute-floor.ts) are measured in alternating rounds
 * (the server stays up, idle, while the floor runs): on a shared machine the database's pace
 * drifts over a minute (checkpoints, other work), and a floor measured once, after the service,
 * moved the ratio by half from run to run. The ratio reported is the median of the rounds'; the
 * rates, CPU and latencies are over all rounds. Embedded, the floor opens the server's data folder
 * after the server stopped, so it is one round there.
 *
 * Environment: BENCH_EXECUTE_CLIENTS (default 10), BENCH_EXECUTE_SECONDS
 * (measured per round, default 10), BENCH_EXECUTE_WARMUP (s, default 3), BENCH_EXECUTE_ROUNDS
 * (PostgreSQL: service and floor rounds, default 3),
 * BENCH_EXECUTE_SAME_USER=1 (every client the same trader: orders serialize on
 * one position row), BENCH_STARTUP_TIMEOUT (s, default 120); BENCH_SERVER_CMD, DATABASE_URL /
 * REDIS_URL as for `npm run bench` (set: PostgreSQL; unset: embedded). Writes
 * test/bench/results/execute.json.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signToken } from '../../src/auth/token-signer';
import { loadConfig } from '../../src/config';
import { runExecuteFloor, type FloorReport, type FloorTarget } from './execute-floor';
import { KeepAliveClient } from './keepalive-client';
import { measureWindow } from './process-cpu';
import { startAppServer, type AppServer } from './server-process';
import { median, percentile } from './stats';

export interface ExecuteSettings {
  clients: number;
  seconds: number;
  warmupSec: number;
  /** PostgreSQL: alternating rounds of the service and the floor, `seconds` each (embedded: 1). */
  rounds: number;
  sameUser: boolean;
  startupTimeoutMs: number;
}

/** One round's service rate beside the floor's measured right after it. */
export interface ExecuteRound {
  perSecond: number;
  floorPerSecond: number;
  ofFloor: number;
}

export interface ExecuteReport {
  settings: ExecuteSettings;
  database: 'embedded' | 'DATABASE_URL';
  loadAvg1m: number;
  executions: number;
  failed: number;
  perSecond: number;
  p50: number;
  p99: number;
  statementsPerExecution: number;
  /**
   * The server process's CPU time per execution (ms): on a machine busy with other work, a steadier
   * figure than the rate. Embedded, it includes the database (PGlite runs in the process).
   */
  cpuMsPerExecution: number;
  /** PostgreSQL's CPU per execution (ms), read from `/proc` on this machine; undefined embedded or elsewhere. */
  databaseCpuMsPerExecution?: number;
  /** The bench's own CPU per execution (its HTTP clients), ms. */
  clientCpuMsPerExecution: number;
  failures: string[];
  /**
   * The floor: the equivalent transaction written plainly, one statement a row (BEGIN; the
   * position locked; order; fill; position; ledger entries; balance; notification; COMMIT),
   * straight over the driver, measured in the same run, alternating with the service on
   * PostgreSQL (execute-floor.ts): what this machine's database gives that transaction; over all
   * rounds.
   */
  floor: FloorReport;
  /** The median of the rounds' service rate over the floor's rate (the goal: 0.5 or more). */
  ofFloor: number;
  /** Each round: the service, then the floor. */
  rounds: ExecuteRound[];
  /** The service's own one statement straight over the driver, in the same run (a reference). */
  statementFloor: FloorReport;
  /** {@link perSecond} over the statement floor's rate. */
  ofStatementFloor: number;
  /** PostgreSQL: the service's statement prepared once per connection, as the service prepares it. */
  preparedFloor?: FloorReport;
  /** {@link perSecond} over the prepared floor's rate. */
  ofPreparedFloor?: number;
}

function log(message: string): void {
  process.stderr.write(`[bench:execute] ${message}\n`);
}

/** Settings that turn the periodic background work off, so `db_queries_total` counts requests only. */
const QUIET = {
  WITHDRAWAL_DISPATCH_MS: '0',
  EXECUTION_RECONCILE_MS: '0',
  ROUTE_INTENT_PURGE_MS: '0',
  REWARDS_SETTLE_MS: '0',
};

/** An active venue_b market of a matched event (venue_b charges fees, so the fee path runs). */
async function venueBMarket(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/events?sourceType=matched&pageSize=5`);
  const page = (await res.json()) as { data?: { markets: { venue: string; marketId: string; status: string }[] }[] };
  for (const event of page.data ?? []) {
    const market = event.markets.find((m) => m.venue === 'venue_b' && m.status === 'active');
    if (market) return market.marketId;
  }
  throw new Error('no matched event with an active venue_b market: is the database seeded?');
}

/** The server's SQL statements and CPU seconds so far (`/metrics`). */
async function counters(baseUrl: string): Promise<{ queries: number; cpuSeconds: number }> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const queries = /^db_queries_total (\d+)/m.exec(text);
  const cpu = /^process_cpu_seconds_total ([\d.e+-]+)/m.exec(text);
  if (!queries || !cpu) throw new Error('/metrics has no db_queries_total or process_cpu_seconds_total');
  return { queries: Number(queries[1]), cpuSeconds: Number(cpu[1]) };
}

/** One execution to its end: undefined when it completed, else what went wrong. */
async function executeOnce(client: KeepAliveClient, token: string, marketId: string): Promise<string | undefined> {
  const res = await client.request(
    'POST',
    '/execute',
    { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    JSON.stringify({ marketId, side: 'buy', outcome: 'yes', size: 1 }),
  );
  const text = res.body;
  if (res.status !== 200) return `status ${res.status}: ${text.slice(0, 200)}`;
  const events = [...text.matchAll(/^event: (.*)$/gm)].map((m) => m[1]);
  const last = events[events.length - 1];
  return last === 'completed' ? undefined : `ended with ${last ?? 'nothing'}: ${text.slice(-300)}`;
}

export async function runExecuteBench(settings: ExecuteSettings, env: NodeJS.ProcessEnv): Promise<ExecuteReport> {
  let server: AppServer | undefined;
  // Embedded: a data folder of the bench's own, kept when the server stops, for the floor.
  const dataDir = env.DATABASE_URL ? undefined : mkdtempSync(path.join(os.tmpdir(), 'bench-execute-'));
  try {
    server = await startAppServer({
      command: env.BENCH_SERVER_CMD || undefined,
      startupTimeoutMs: settings.startupTimeoutMs,
      env,
      dataDir,
      extraEnv: { ...QUIET, SIMULATION_RATE_LIMIT: '1000000', PAPER_STARTING_BALANCE_USD: '1000000000' },
    });
    const base = server.baseUrl;
    const marketId = await venueBMarket(base);
    const run = randomUUID().slice(0, 8);
    const authConfig = loadConfig(env).auth.user;
    const tokens = await Promise.all(
      Array.from({ length: settings.clients }, (_, i) =>
        signToken(authConfig, `bench-exec-${run}-${settings.sameUser ? 0 : i}`, { ttlSeconds: 3600 }),
      ),
    );
    const failures: string[] = [];
    const phase = async (seconds: number) => {
      const latencies: number[] = [];
      let failed = 0;
      const until = performance.now() + seconds * 1000;
      await Promise.all(
        tokens.map(async (token) => {
          // A kept-alive connection per client, as a trading client holds one.
          const client = KeepAliveClient.of(base);
          while (performance.now() < until) {
            const t0 = performance.now();
            const problem = await executeOnce(client, token, marketId).catch((err: unknown) => String(err));
            if (problem) {
              failed += 1;
              if (failures.length < 5) failures.push(problem);
            } else latencies.push(performance.now() - t0);
          }
          client.close();
        }),
      );
      return { latencies, failed };
    };
    if (settings.warmupSec > 0) {
      log(`warming up (${settings.warmupSec} s, ${settings.clients} clients)`);
      await phase(settings.warmupSec);
    }
    const target: FloorTarget = env.DATABASE_URL
      ? { kind: 'postgres', databaseUrl: env.DATABASE_URL }
      : { kind: 'pglite', dataDir: dataDir! };
    const rounds = target.kind === 'postgres' ? Math.max(1, settings.rounds) : 1;
    const latencies: number[] = [];
    let failed = 0;
    let elapsed = 0;
    let queries = 0;
    let serverCpuMs = 0;
    let dbCpuMs: number | undefined = env.DATABASE_URL ? 0 : undefined;
    let clientCpuMs = 0;
    const perRound: { perSecond: number }[] = [];
    const floors: FloorReport[] = [];
    /** One measured window of the service: its executions, and the CPU and statements it took. */
    const measureService = async (round: number) => {
      log(`measuring, round ${round}/${rounds} (${settings.seconds} s, ${settings.clients} clients)`);
      const before = await counters(base);
      const window = await measureWindow(() => phase(settings.seconds), dbCpuMs !== undefined);
      const after = await counters(base);
      const result = window.value;
      latencies.push(...result.latencies);
      failed += result.failed;
      elapsed += window.seconds;
      queries += after.queries - before.queries;
      serverCpuMs += (after.cpuSeconds - before.cpuSeconds) * 1000;
      // A round whose PostgreSQL CPU could not be read leaves the figure out rather than short.
      dbCpuMs =
        dbCpuMs === undefined || window.databaseCpuMs === undefined ? undefined : dbCpuMs + window.databaseCpuMs;
      clientCpuMs += window.clientCpuMs;
      perRound.push({ perSecond: result.latencies.length / window.seconds });
    };
    const measureFloor = async (round: number) => {
      log(`the floor, round ${round}/${rounds}: the same rows one statement each (${settings.seconds} s)`);
      floors.push(await runExecuteFloor({ ...settings, shape: 'rowwise' }, target));
    };
    for (let round = 1; round <= rounds; round += 1) {
      await measureService(round);
      // PostgreSQL: the server stays up, idle, while the floor runs; PGlite: the floor needs its folder.
      if (target.kind === 'postgres') await measureFloor(round);
    }
    const database = server.database;
    await server.stop();
    if (target.kind === 'pglite') await measureFloor(1);
    latencies.sort((a, b) => a - b);
    const executions = latencies.length;
    const perSecond = Math.round((executions / elapsed) * 10) / 10;
    const perExecution = (ms: number) =>
      executions + failed > 0 ? Math.round((ms * 100) / (executions + failed)) / 100 : 0;
    const floor = combineFloors(floors);
    const roundsReport: ExecuteRound[] = perRound.map((r, i) => ({
      perSecond: Math.round(r.perSecond * 10) / 10,
      floorPerSecond: floors[i].perSecond,
      ofFloor: floors[i].perSecond > 0 ? Math.round((r.perSecond / floors[i].perSecond) * 100) / 100 : 0,
    }));
    log(`the service's statement over the driver (${settings.seconds} s, ${settings.clients} clients)`);
    const statementFloor = await runExecuteFloor({ ...settings, shape: 'service' }, target);
    let preparedFloor: FloorReport | undefined;
    if (target.kind === 'postgres') {
      log(`the service's statement prepared, as the service does (${settings.seconds} s, ${settings.clients} clients)`);
      preparedFloor = await runExecuteFloor({ ...settings, shape: 'service', prepared: true }, target);
    }
    const ofFloorOf = (f: FloorReport) => (f.perSecond > 0 ? Math.round((perSecond / f.perSecond) * 100) / 100 : 0);
    return {
      settings,
      database,
      loadAvg1m: Math.round(os.loadavg()[0] * 100) / 100,
      executions,
      failed,
      perSecond,
      p50: Math.round(percentile(latencies, 50) * 10) / 10,
      p99: Math.round(percentile(latencies, 99) * 10) / 10,
      // The /metrics reads run no statement; failed executions ran some too, so only a clean run is exact.
      statementsPerExecution: executions + failed > 0 ? Math.round((queries / (executions + failed)) * 10) / 10 : 0,
      cpuMsPerExecution: perExecution(serverCpuMs),
      databaseCpuMsPerExecution: dbCpuMs === undefined ? undefined : perExecution(dbCpuMs),
      clientCpuMsPerExecution: perExecution(clientCpuMs),
      failures,
      floor,
      ofFloor: Math.round(median(roundsReport.map((r) => r.ofFloor)) * 100) / 100,
      rounds: roundsReport,
      statementFloor,
      ofStatementFloor: ofFloorOf(statementFloor),
      ...(preparedFloor && { preparedFloor, ofPreparedFloor: ofFloorOf(preparedFloor) }),
    };
  } finally {
    if (server) await server.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The floor over several rounds: their executions added, rates and CPU averaged (weighted by executions). */
function combineFloors(floors: readonly FloorReport[]): FloorReport {
  const executions = floors.reduce((n, f) => n + f.executions, 0);
  const weighted = (pick: (f: FloorReport) => number) =>
    executions > 0 ? Math.round((floors.reduce((n, f) => n + pick(f) * f.executions, 0) / executions) * 100) / 100 : 0;
  const withDb = floors.every((f) => f.databaseCpuMs !== undefined);
  return {
    executions,
    perSecond: Math.round((floors.reduce((n, f) => n + f.perSecond, 0) / floors.length) * 10) / 10,
    clientCpuMs: weighted((f) => f.clientCpuMs),
    ...(withDb && { databaseCpuMs: weighted((f) => f.databaseCpuMs!) }),
    statementsPerExecution: Math.round(weighted((f) => f.statementsPerExecution) * 10) / 10,
  };
}

export function formatExecuteReport(r: ExecuteReport): string {
  return [
    `stored simulated POST /execute, ${r.database}, ${r.settings.clients} clients` +
      `${r.settings.sameUser ? ' (one trader)' : ''}, load ${r.loadAvg1m}`,
    `  ${r.perSecond} executions/s (${r.executions} in ${r.settings.seconds * Math.max(1, r.rounds.length)} s, ` +
      `${r.failed} failed), ` +
      `p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.statementsPerExecution} statements and ` +
      `${r.cpuMsPerExecution} ms of server CPU per execution`,
    `  CPU per execution elsewhere: the bench's clients ${r.clientCpuMsPerExecution} ms` +
      (r.databaseCpuMsPerExecution === undefined ? '' : `, PostgreSQL ${r.databaseCpuMsPerExecution} ms`),
    `  the floor, the equivalent transaction one statement a row (${r.floor.statementsPerExecution} statements) ` +
      `over the driver: ${r.floor.perSecond}/s (${r.floor.clientCpuMs} ms of client CPU each` +
      (r.floor.databaseCpuMs === undefined ? '' : `, PostgreSQL ${r.floor.databaseCpuMs} ms`) +
      `); the service at ${r.ofFloor}× the floor` +
      (r.rounds.length > 1
        ? ` (median of ${r.rounds.length} alternating rounds: ` +
          r.rounds.map((x) => `${x.perSecond}/${x.floorPerSecond} = ${x.ofFloor}×`).join(', ') +
          ')'
        : ''),
    `  the service's own statement over the driver (${r.statementFloor.statementsPerExecution} statement): ` +
      `${r.statementFloor.perSecond}/s (${r.statementFloor.clientCpuMs} ms of client CPU each` +
      (r.statementFloor.databaseCpuMs === undefined ? '' : `, PostgreSQL ${r.statementFloor.databaseCpuMs} ms`) +
      `); the service at ${r.ofStatementFloor}× it`,
    ...(r.preparedFloor
      ? [
          `  the service's statement prepared once per connection, as the service does: ` +
            `${r.preparedFloor.perSecond}/s ` +
            `(${r.preparedFloor.clientCpuMs} ms of client CPU each, PostgreSQL ${r.preparedFloor.databaseCpuMs} ms); ` +
            `the service at ${r.ofPreparedFloor}× it`,
        ]
      : []),
    ...r.failures.map((f) => `  ! ${f}`),
  ].join('\n');
}

function envNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw.trim() === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min} (got "${raw}")`);
  return value;
}

if (require.main === module) {
  const settings: ExecuteSettings = {
    clients: Math.round(envNumber('BENCH_EXECUTE_CLIENTS', 10, 1)),
    seconds: envNumber('BENCH_EXECUTE_SECONDS', 10, 1),
    warmupSec: envNumber('BENCH_EXECUTE_WARMUP', 3, 0),
    rounds: Math.round(envNumber('BENCH_EXECUTE_ROUNDS', 3, 1)),
    sameUser: process.env.BENCH_EXECUTE_SAME_USER === '1',
    startupTimeoutMs: envNumber('BENCH_STARTUP_TIMEOUT', 120, 1) * 1000,
  };
  runExecuteBench(settings, process.env).then(
    (report) => {
      process.stdout.write(`${formatExecuteReport(report)}\n`);
      const dir = path.join(__dirname, 'results');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'execute.json'), `${JSON.stringify(report, null, 2)}\n`);
      process.exit(report.failed === 0 ? 0 : 1);
    },
    (err: unknown) => {
      log(`error: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
