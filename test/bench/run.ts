/**
 * `npm run bench`: measures the application against a bare-node baseline on the
 * same machine, prints a table and writes `test/bench/results/latest.json`.
 *
 * Environment (all optional):
 * - BENCH_DURATION          seconds per measured scenario (default 10)
 * - BENCH_WARMUP            seconds of discarded load before each measurement (default 3)
 * - BENCH_CONNECTIONS       concurrent connections (default 10, sized for 2 cores
 *                           shared by autocannon and a single-threaded server)
 * - BENCH_PIPELINING        requests in flight per connection (default 1)
 * - BENCH_MAX_ERROR_RATE    failed share above which a scenario fails (default 0.001)
 * - BENCH_STARTUP_TIMEOUT   seconds to wait for GET /health (default 120)
 * - BENCH_ONLY              only scenarios whose name contains this (case-insensitive)
 * - BENCH_COMPARE_ROUNDS    scenarios with `comparesTo` are also measured alternately with their
 *                           counterpart, this many rounds of BENCH_COMPARE_SECONDS each (default 3
 *                           and 5): the printed ratio is the median of the rounds, which a machine
 *                           busy with other work skews far less than two measurements in a row
 * - BENCH_REDIS_URL         Redis for the market-data limiter scenarios (default REDIS_URL; unset:
 *                           the in-process limiter); each of their servers uses its own key prefix
 * - BENCH_SERVER_CMD        command line to start instead of `node dist/main.js` (the production build,
 *                           rebuilt first when the sources changed)
 *                           (run from the repo root without a shell: words and quotes only); it
 *                           receives PORT, HOST, SIM_TRADE_RATE=0, LOG_LEVEL=warn and DATA_DIR
 * - DATABASE_URL / REDIS_URL passed through when DATABASE_URL is set; otherwise the
 *                           server gets a fresh temporary DATA_DIR (embedded database).
 *                           With DATABASE_URL the run ends with the indexer webhook against raw
 *                           PostgreSQL inserts (indexer.ts; BENCH_INDEXER_ROUNDS, BENCH_INDEXER_BATCH);
 *                           `BENCH_ONLY=indexer` runs only that.
 *
 * Exit code: 0 when every scenario is ok, 1 otherwise (including aborted runs).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { startBaselineServer, type BaselineServer } from './baseline-server';
import { measure, probe, type LoadSettings } from './load';
import { formatTable, withRatios, writeReport, type BenchReport, type ScenarioResult } from './report';
import { formatIndexerTable, runIndexerBench, type IndexerReport } from './indexer';
import { BASELINE, BASELINE_BODY_PATH, resolveScenario, SCENARIOS, type Scenario } from './scenarios';
import { REPO_ROOT, startAppServer, type AppServer } from './server-process';
import { median } from './stats';
import { formatStartupTable, runStartupBench, WORLD_BUILD_BUDGET_MS, type StartupReport } from './startup';
import { formatAccountStreamsReport, runAccountStreamsBench, type AccountStreamsReport } from './account-streams';
import { formatMarketStreamsReport, runMarketStreamsBench, type MarketStreamsReport } from './market-streams';
import { formatStreamsReport, runStreamsBench, type StreamsReport } from './streams';
import { formatExecuteReport, runExecuteBench, type ExecuteReport } from './execute';

const RESULTS_DIR = path.join(__dirname, 'results');

function envNumber(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new Error(`${name} must be a number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function main(signal: AbortSignal): Promise<boolean> {
  // The server measured is the one `npm start` runs: the production build, current.
  if (!process.env.BENCH_SERVER_CMD) {
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.js'), '--if-stale'], { stdio: 'inherit' });
  }
  const settings: LoadSettings = {
    durationSec: envNumber('BENCH_DURATION', 10, 1, 3600),
    connections: Math.round(envNumber('BENCH_CONNECTIONS', 10, 1, 1000)),
    pipelining: Math.round(envNumber('BENCH_PIPELINING', 1, 1, 100)),
    maxFailureRate: envNumber('BENCH_MAX_ERROR_RATE', 0.001, 0, 1),
  };
  const warmupSec = envNumber('BENCH_WARMUP', 3, 0, 600);
  const startupTimeoutMs = envNumber('BENCH_STARTUP_TIMEOUT', 120, 1, 3600) * 1000;
  const only = process.env.BENCH_ONLY?.trim().toLowerCase();
  const scenarios = only ? SCENARIOS.filter((s) => s.name.toLowerCase().includes(only)) : SCENARIOS;
  const wantIndexer = !only || INDEXER_NAME.toLowerCase().includes(only);
  const wantStartup = !only || STARTUP_NAME.includes(only);
  const wantStreams = !only || STREAMS_NAME.includes(only);
  const wantExecute = !only || EXECUTE_NAME.includes(only);
  if (scenarios.length === 0 && !wantIndexer && !wantStartup && !wantStreams && !wantExecute) {
    throw new Error(`BENCH_ONLY="${only}" matches no scenario`);
  }
  const extraParts = async () => ({
    startup: wantStartup ? await startupPart(startupTimeoutMs, signal) : { ok: true },
    streams: wantStreams ? await streamsPart(startupTimeoutMs) : { ok: true },
    execute: wantExecute ? await executePart(startupTimeoutMs) : { ok: true, reports: [] },
    indexer: wantIndexer ? await indexerPart() : { ok: true },
  });
  if (scenarios.length === 0) {
    const parts = await extraParts();
    return Object.values(parts).every((p) => p.ok);
  }

  const startedAt = new Date();
  let baselineServer: BaselineServer | undefined;
  let app: AppServer | undefined;
  let exit: string | undefined;
  /** Servers of scenarios with their own settings, by `serverEnv`. */
  const variants = new Map<string, { env: Record<string, string>; server: AppServer; exit?: string }>();
  const start = async (extraEnv?: Record<string, string>): Promise<AppServer> => {
    const what = extraEnv ? ` with ${Object.keys(extraEnv).sort().join(', ')}` : '';
    log(`starting a server${what}: ${process.env.BENCH_SERVER_CMD ?? 'node dist/main.js'}`);
    const server = await startAppServer({
      command: process.env.BENCH_SERVER_CMD || undefined,
      startupTimeoutMs,
      env: process.env,
      signal,
      extraEnv,
    });
    log(
      `server healthy at ${server.baseUrl} ` +
        `(${server.database === 'embedded' ? 'embedded database, fresh DATA_DIR' : 'DATABASE_URL'})`,
    );
    return server;
  };
  const serverFor = async (s: Scenario): Promise<AppServer> => {
    if (!s.serverEnv) {
      app ??= await start();
      return app;
    }
    const key = JSON.stringify(Object.entries(s.serverEnv).sort());
    const known = variants.get(key);
    if (known) return known.server;
    const server = await start(s.serverEnv);
    variants.set(key, { env: s.serverEnv, server });
    return server;
  };
  try {
    // The baseline writes the very bytes of the REST events page (the "same body").
    let baselineBody: Buffer | undefined;
    if (scenarios.length > 0) {
      const url = (await serverFor(scenarios.find((s) => !s.serverEnv) ?? scenarios[0])).baseUrl;
      const page = await fetch(`${url}${BASELINE_BODY_PATH}`);
      if (page.status !== 200) throw new Error(`GET ${BASELINE_BODY_PATH} answered ${page.status}`);
      baselineBody = Buffer.from(await page.arrayBuffer());
    }
    baselineServer = await startBaselineServer(baselineBody);
    log(
      `baseline listening at ${baselineServer.baseUrl}, serving ` +
        (baselineBody ? `the ${baselineBody.length}-byte body of GET ${BASELINE_BODY_PATH}` : 'a synthetic page'),
    );

    const targets: [string, Scenario][] = [[baselineServer.baseUrl, BASELINE]];
    for (const s of scenarios) {
      const url = (await serverFor(s)).baseUrl;
      // Scenarios that need catalog ids or credentials look them up once, here.
      let resolved = await resolveScenario(url, s);
      if (resolved.headerRotation)
        resolved = { ...resolved, rotateHeaders: await resolved.headerRotation(url), headerRotation: undefined };
      targets.push([url, resolved]);
    }
    const problems: string[] = [];
    for (const [baseUrl, s] of targets) {
      const problem = await probe(baseUrl, s);
      if (problem) problems.push(`- ${s.name} (${s.method} ${s.path}): ${problem}`);
    }
    if (problems.length > 0) throw new Error(`probe failed, nothing was measured:\n${problems.join('\n')}`);

    const results: ScenarioResult[] = [];
    for (const [baseUrl, s] of targets) {
      if (warmupSec > 0) {
        log(`warming up: ${s.name} (${warmupSec} s)`);
        await measure(baseUrl, s, { ...settings, durationSec: warmupSec }, signal);
      }
      if (signal.aborted) throw new Error('aborted');
      log(`measuring: ${s.name} (${settings.durationSec} s, ${settings.connections} connections)`);
      const isApp = s !== BASELINE;
      const queriesBefore = isApp ? await queryCount(baseUrl) : undefined;
      const result = await measure(baseUrl, s, settings, signal);
      const queriesAfter = isApp ? await queryCount(baseUrl) : undefined;
      if (queriesBefore !== undefined && queriesAfter !== undefined && result.responses > 0) {
        result.sqlPerRequest = (queriesAfter - queriesBefore) / result.responses;
      }
      results.push(result);
      if (signal.aborted) throw new Error('aborted');
    }

    const [baseline, ...rest] = results;
    const scenarioResults = withRatios(baseline, rest);
    process.stdout.write(`\n${formatTable(baseline, scenarioResults)}\n\n`);
    const comparisons: NonNullable<BenchReport['comparisons']> = [];
    const rounds = Math.round(envNumber('BENCH_COMPARE_ROUNDS', 3, 1, 100));
    const roundSec = envNumber('BENCH_COMPARE_SECONDS', 5, 1, 600);
    for (const [url, s] of targets) {
      const counterpart = targets.find(([, x]) => x.name === s.comparesTo);
      const r = scenarioResults.find((x) => x.name === s.name);
      const other = scenarioResults.find((x) => x.name === s.comparesTo);
      if (!counterpart || !r?.ok || !other?.ok || other.rps <= 0) continue;
      const ratios: number[] = [];
      for (let i = 1; i <= rounds; i += 1) {
        log(`comparing, round ${i}/${rounds}: ${s.name} against ${other.name} (${roundSec} s each)`);
        const a = await measure(counterpart[0], counterpart[1], { ...settings, durationSec: roundSec }, signal);
        const b = await measure(url, s, { ...settings, durationSec: roundSec }, signal);
        if (signal.aborted) throw new Error('aborted');
        if (a.ok && b.ok && a.rps > 0) ratios.push(b.rps / a.rps);
      }
      if (ratios.length === 0) continue;
      const rpsRatio = median(ratios);
      const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
      process.stdout.write(
        `${s.name}: ${pct(rpsRatio)} of the throughput of "${other.name}" (${pct(1 - rpsRatio)} cost; ` +
          (`median of ${ratios.length} alternating rounds: ${ratios.map(pct).join(', ')}; single run above: ` +
            `${pct(r.rps / other.rps)})\n`),
      );
      comparisons.push({ name: s.name, comparesTo: other.name, rpsRatio, rounds: ratios });
    }
    if (comparisons.length > 0) process.stdout.write('\n');

    const stopAll = [
      ...(app ? [['main', app] as const] : []),
      ...[...variants.values()].map((v) => [v, v.server] as const),
    ];
    for (const [owner, server] of stopAll) {
      const stopped = await server.stop();
      const how = stopped.killed ? 'SIGKILL after grace period' : `code ${stopped.code}, signal ${stopped.signal}`;
      if (owner === 'main') exit = how;
      else owner.exit = how;
      if (stopped.killed || stopped.code !== 0) log(`warning: a server did not exit cleanly on SIGTERM (${how})`);
    }
    const main = app ?? [...variants.values()][0].server;

    const { startup, streams, execute, indexer } = await extraParts();
    const cpus = os.cpus();
    const report: BenchReport & {
      indexer?: IndexerReport;
      startup?: StartupReport;
      streams?: StreamsPartReport;
      execute?: ExecuteReport[];
    } = {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      settings: { ...settings, warmupSec, scenarios: scenarios.map((s) => s.name).join(' | ') },
      machine: {
        node: process.version,
        platform: `${os.platform()} ${os.release()} ${os.arch()}`,
        cpus: cpus.length,
        cpuModel: cpus[0]?.model ?? 'unknown',
        totalMemMb: Math.round(os.totalmem() / 2 ** 20),
        loadAvg1m: Math.round(os.loadavg()[0] * 100) / 100,
      },
      server: { command: main.description, database: main.database, exit },
      baseline,
      scenarios: scenarioResults,
      ...(comparisons.length > 0 && { comparisons }),
      ...(variants.size > 0 && { variants: [...variants.values()].map((v) => ({ env: redact(v.env), exit: v.exit })) }),
      ...(indexer.report && { indexer: indexer.report }),
      ...(startup.report && { startup: startup.report }),
      ...(streams.report && { streams: streams.report }),
      ...(execute.reports.length > 0 && { execute: execute.reports }),
      ok: baseline.ok && scenarioResults.every((r) => r.ok) && indexer.ok && startup.ok && streams.ok && execute.ok,
    };
    log(`results written to ${path.relative(process.cwd(), writeReport(report, RESULTS_DIR))}`);
    if (!report.ok) log('FAILED: at least one scenario had failing requests; its numbers measure errors, not speed');
    return report.ok;
  } finally {
    if (app) await app.stop();
    for (const v of variants.values()) await v.server.stop();
    if (baselineServer) await baselineServer.close();
  }
}

const STARTUP_NAME = 'startup: npm start to /health and /health/ready, idle memory (embedded; PostgreSQL + Redis too)';

/** Starts and idle memory: embedded always; PostgreSQL + Redis when DATABASE_URL and REDIS_URL are set. */
async function startupPart(
  startupTimeoutMs: number,
  signal: AbortSignal,
): Promise<{ ok: boolean; report?: StartupReport }> {
  log(`measuring: ${STARTUP_NAME}`);
  try {
    const report = await runStartupBench({
      command: process.env.BENCH_SERVER_CMD || undefined,
      env: process.env,
      startupTimeoutMs,
      idleSeconds: envNumber('BENCH_IDLE_SECONDS', 30, 0, 3600),
      signal,
    });
    process.stdout.write(`${formatStartupTable(report)}\n\n`);
    if (report.worldBuildMs > WORLD_BUILD_BUDGET_MS) {
      const took = Math.round(report.worldBuildMs);
      log(`FAILED: the simulated world took ${took} ms to build (at most ${WORLD_BUILD_BUDGET_MS})`);
      return { ok: false, report };
    }
    return { ok: true, report };
  } catch (err) {
    log(`FAILED: ${STARTUP_NAME}: ${err instanceof Error ? err.message : String(err)}`);
    return { ok: false };
  }
}

const STREAMS_NAME =
  'streams: 2,000 held /stream/trades clients (memory, trade time to client), 2,000 clients of one market ' +
  '(venue message to client beside a bare fan-out), account events (commit to client)';
const EXECUTE_NAME = 'execute: stored simulated POST /execute, embedded and PostgreSQL';

/** What the streams part measured: held trades streams, a market's fan-out, account events. */
type StreamsPartReport = StreamsReport & { markets: MarketStreamsReport; account: AccountStreamsReport };

/**
 * Held SSE clients (the server's own database mode): memory per connection and live trade delivery,
 * a venue message's fan-out to a market's clients beside a bare Node fan-out, and an account event
 * from its commit to its client beside a bare pub/sub and HTTP round trip.
 */
async function streamsPart(startupTimeoutMs: number): Promise<{ ok: boolean; report?: StreamsPartReport }> {
  log(`measuring: ${STREAMS_NAME}`);
  try {
    const settings = {
      clients: Math.round(envNumber('BENCH_STREAM_CLIENTS', 2000, 1, 100_000)),
      tradeRate: envNumber('BENCH_STREAM_TRADE_RATE', 5, 0.1, 1000),
      seconds: envNumber('BENCH_STREAM_SECONDS', 10, 1, 3600),
      startupTimeoutMs,
    };
    const trades = await runStreamsBench(settings, process.env);
    process.stdout.write(`${formatStreamsReport(trades)}\n\n`);
    const markets = await runMarketStreamsBench(
      { ...settings, rate: envNumber('BENCH_MARKET_RATE', 20, 0.1, 1000) },
      process.env,
    );
    process.stdout.write(`${formatMarketStreamsReport(markets)}\n\n`);
    const account = await runAccountStreamsBench(
      { users: 20, orders: 300, concurrency: 4, pings: 2000, startupTimeoutMs },
      process.env,
    );
    process.stdout.write(`${formatAccountStreamsReport(account)}\n\n`);
    const report = { ...trades, markets, account };
    // Orders that did not complete announce less than they should: the figure measures nothing.
    if (account.failedOrders > 0) log(`FAILED: ${STREAMS_NAME}: ${account.failedOrders} paper buys did not complete`);
    return { ok: account.failedOrders === 0, report };
  } catch (err) {
    log(`FAILED: ${STREAMS_NAME}: ${err instanceof Error ? err.message : String(err)}`);
    return { ok: false };
  }
}

/**
 * Stored simulated executions per second, embedded, and on PostgreSQL + Redis when
 * BENCH_PG_URL (and optionally BENCH_REDIS_URL) or DATABASE_URL names one.
 */
async function executePart(startupTimeoutMs: number): Promise<{ ok: boolean; reports: ExecuteReport[] }> {
  const settings = {
    clients: Math.round(envNumber('BENCH_EXECUTE_CLIENTS', 10, 1, 1000)),
    seconds: envNumber('BENCH_EXECUTE_SECONDS', 10, 1, 3600),
    warmupSec: envNumber('BENCH_EXECUTE_WARMUP', 3, 0, 600),
    rounds: Math.round(envNumber('BENCH_EXECUTE_ROUNDS', 3, 1, 20)),
    sameUser: false,
    startupTimeoutMs,
  };
  const embedded = { ...process.env };
  delete embedded.DATABASE_URL;
  delete embedded.REDIS_URL;
  const pgUrl = process.env.BENCH_PG_URL || process.env.DATABASE_URL;
  const runs: [string, NodeJS.ProcessEnv][] = [['embedded', embedded]];
  if (pgUrl) {
    const redis = process.env.BENCH_REDIS_URL || process.env.REDIS_URL;
    runs.push(['PostgreSQL', { ...process.env, DATABASE_URL: pgUrl, ...(redis && { REDIS_URL: redis }) }]);
  } else {
    log('execute on PostgreSQL skipped: set BENCH_PG_URL (or DATABASE_URL)');
  }
  const reports: ExecuteReport[] = [];
  let ok = true;
  for (const [name, env] of runs) {
    log(`measuring: stored simulated POST /execute, ${name}`);
    try {
      const report = await runExecuteBench(settings, env);
      process.stdout.write(`${formatExecuteReport(report)}\n\n`);
      reports.push(report);
      ok &&= report.failed === 0;
    } catch (err) {
      log(`FAILED: stored execute, ${name}: ${err instanceof Error ? err.message : String(err)}`);
      ok = false;
    }
  }
  return { ok, reports };
}

const INDEXER_NAME = 'indexer webhook: 1,000-fill batches against raw INSERT … ON CONFLICT DO NOTHING (PostgreSQL)';

/** The indexer webhook's fills/s beside raw inserts; PostgreSQL only (it needs a second connection). */
async function indexerPart(): Promise<{ ok: boolean; report?: IndexerReport }> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    log(`skipped: ${INDEXER_NAME} (set DATABASE_URL to a PostgreSQL database)`);
    return { ok: true };
  }
  log(`measuring: ${INDEXER_NAME}`);
  try {
    const report = await runIndexerBench(databaseUrl);
    process.stdout.write(`${formatIndexerTable(report)}\n\n`);
    return { ok: true, report };
  } catch (err) {
    log(`FAILED: ${INDEXER_NAME}: ${err instanceof Error ? err.message : String(err)}`);
    return { ok: false };
  }
}

/** The server's SQL statement counter (`db_queries_total` on /metrics); undefined when it cannot be read. */
async function queryCount(baseUrl: string): Promise<number | undefined> {
  try {
    const res = await fetch(`${baseUrl}/metrics`);
    const match = /^db_queries_total (\d+)/m.exec(await res.text());
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Environment for the report, without credentials embedded in URLs. */
function redact(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace(/\/\/[^@/]*@/, '//***@')]));
}

const controller = new AbortController();
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (controller.signal.aborted) process.exit(130); // second signal: give up on cleanup
    log(`${sig}: stopping (again to force)`);
    controller.abort();
  });
}

main(controller.signal).then(
  (ok) => process.exit(ok ? 0 : 1),
  (err: unknown) => {
    log(`error: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
