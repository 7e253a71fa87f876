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
 * - BENCH_SERVER_CMD        command line to start instead of `node -r ./scripts/register.js src/main.ts`
 *                           (run from the repo root without a shell: words and quotes only); it
 *                           receives PORT, HOST, SIM_TRADE_RATE=0, LOG_LEVEL=warn and DATA_DIR
 * - DATABASE_URL / REDIS_URL passed through when DATABASE_URL is set; otherwise the
 *                           server gets a fresh temporary DATA_DIR (embedded database).
 *
 * Exit code: 0 when every scenario is ok, 1 otherwise (including aborted runs).
 */
import os from 'node:os';
import path from 'node:path';
import { startBaselineServer, type BaselineServer } from './baseline-server';
import { measure, probe, type LoadSettings } from './load';
import { formatTable, withRatios, writeReport, type BenchReport, type ScenarioResult } from './report';
import { BASELINE, SCENARIOS, type Scenario } from './scenarios';
import { startAppServer, type AppServer } from './server-process';

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
  if (scenarios.length === 0) throw new Error(`BENCH_ONLY="${only}" matches no scenario`);

  const startedAt = new Date();
  let baselineServer: BaselineServer | undefined;
  let app: AppServer | undefined;
  let exit: string | undefined;
  try {
    baselineServer = await startBaselineServer();
    log(`baseline listening at ${baselineServer.baseUrl}`);
    log(`starting the server: ${process.env.BENCH_SERVER_CMD ?? 'node -r ./scripts/register.js src/main.ts'}`);
    app = await startAppServer({
      command: process.env.BENCH_SERVER_CMD || undefined,
      startupTimeoutMs,
      env: process.env,
      signal,
    });
    const appUrl = app.baseUrl;
    log(`server healthy at ${app.baseUrl} (${app.database === 'embedded' ? 'embedded database, fresh DATA_DIR' : 'DATABASE_URL'})`);

    const targets: [string, Scenario][] = [
      [baselineServer.baseUrl, BASELINE],
      ...scenarios.map((s): [string, Scenario] => [appUrl, s]),
    ];
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
      results.push(await measure(baseUrl, s, settings, signal));
      if (signal.aborted) throw new Error('aborted');
    }

    const [baseline, ...rest] = results;
    const scenarioResults = withRatios(baseline, rest);
    process.stdout.write(`\n${formatTable(baseline, scenarioResults)}\n\n`);

    const stopped = await app.stop();
    exit = stopped.killed ? 'SIGKILL after grace period' : `code ${stopped.code}, signal ${stopped.signal}`;
    if (stopped.killed || stopped.code !== 0) log(`warning: the server did not exit cleanly on SIGTERM (${exit})`);

    const cpus = os.cpus();
    const report: BenchReport = {
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
      server: { command: app.description, database: app.database, exit },
      baseline,
      scenarios: scenarioResults,
      ok: baseline.ok && scenarioResults.every((r) => r.ok),
    };
    log(`results written to ${path.relative(process.cwd(), writeReport(report, RESULTS_DIR))}`);
    if (!report.ok) log('FAILED: at least one scenario had failing requests; its numbers measure errors, not speed');
    return report.ok;
  } finally {
    if (app) await app.stop();
    if (baselineServer) await baselineServer.close();
  }
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
