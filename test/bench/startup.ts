/**
 * Start-up and idle memory, measured from outside as a user sees them: `npm start` spawned, the
 * time to the first `/health` 200 (liveness, answered while the app is still built), to the app's
 * own `/health` and to `/health/ready` 200, and the resident memory `/health` reports after
 * {@link StartupOptions.idleSeconds} of idle. Rows: the first start of a fresh checkout (the build
 * forced, a new ready-database folder: build, migrate, seed, save), a new `DATA_DIR` (started from
 * that ready database), the same folder again, `EMBEDDED_TEMPLATE_DIR=off` (migrated and seeded
 * in the start), and, when `DATABASE_URL` and `REDIS_URL` are set, PostgreSQL + Redis on a fresh
 * schema and restarted on it. A bare Node `http` server is spawned in the same run as the floor.
 * Also the build of the simulated world every start makes, in this process.
 *
 * `npm run bench:startup` runs this part alone (BENCH_IDLE_SECONDS, default 30).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { createSimulatedWorld } from '../../src/venues';
import { sleep } from '../support/wait';
import { freePort, REPO_ROOT, startAppServer, type AppServer } from './server-process';
import { median } from './stats';

/** One start of the server: how long each answer took from spawn, and its idle memory when measured. */
export interface StartRow {
  name: string;
  /** Spawn to the first `/health` 200, ms (median when {@link runs} > 1). */
  healthMs: number;
  /** Spawn to the app's own `/health` 200, ms. */
  appMs: number;
  /** Spawn to `/health/ready` 200, ms. */
  readyMs: number;
  runs: number;
  /** `/health`'s `memoryRssMb` after the idle period, when measured. */
  idleRssMb?: number;
}

export interface StartupReport {
  /** A bare Node `http` server: spawn to 200 (median of 3), ms, and its resident memory, MB. */
  bareNodeMs: number;
  bareNodeRssMb: number;
  rows: StartRow[];
  idleSeconds: number;
  /** Building the simulated world (default seed) in this process, ms: the median of {@link WORLD_BUILDS}. */
  worldBuildMs: number;
}

/** How many simulated world builds {@link StartupReport.worldBuildMs} is the median of (the first warms up). */
export const WORLD_BUILDS = 5;

/** The most a world build may take (ms): every start and every test app makes one. Over it, the part fails. */
export const WORLD_BUILD_BUDGET_MS = 1_000;

/** How many starts the existing-folder row is the median of. */
const REPEATS = 3;

/** The median time of {@link WORLD_BUILDS} builds of the simulated world with the default seed, ms. */
export function measureWorldBuild(): number {
  const times: number[] = [];
  for (let i = 0; i < WORLD_BUILDS; i += 1) {
    const started = performance.now();
    createSimulatedWorld();
    times.push(performance.now() - started);
  }
  return median(times);
}

export interface StartupOptions {
  /** The command started (default `npm start`). */
  command?: string;
  env: NodeJS.ProcessEnv;
  startupTimeoutMs: number;
  idleSeconds: number;
  signal?: AbortSignal;
}

/** A bare Node server answering 200: spawn to its first 200, and its memory after the same idle. */
async function bareNode(): Promise<{ ms: number; rssMb: number }> {
  const times: number[] = [];
  let rssMb = 0;
  for (let i = 0; i < 3; i += 1) {
    const port = await freePort();
    const code =
      "require('node:http').createServer((q, s) => s.end(q.url === '/rss' ? " +
      "String(Math.round(process.memoryUsage.rss() / 1048576)) : 'ok')).listen(Number(process.argv[1]), '127.0.0.1')";
    const started = performance.now();
    const child = spawn(process.execPath, ['-e', code, String(port)], { stdio: 'ignore' });
    try {
      for (;;) {
        const ok = await fetch(`http://127.0.0.1:${port}/`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ok) break;
        await sleep(5);
      }
      times.push(performance.now() - started);
      rssMb = Number(await (await fetch(`http://127.0.0.1:${port}/rss`)).text());
    } finally {
      child.kill();
    }
  }
  return { ms: median(times), rssMb };
}

async function idleRss(server: AppServer, idleSeconds: number): Promise<number> {
  await sleep(idleSeconds * 1000);
  const health = (await (await fetch(`${server.baseUrl}/health`)).json()) as { memoryRssMb?: number };
  if (typeof health.memoryRssMb !== 'number') throw new Error('/health reported no memoryRssMb');
  return health.memoryRssMb;
}

/** Starts the server `runs` times with `extraEnv` (a row's median), measuring idle memory on the first when asked. */
async function startRow(
  o: StartupOptions,
  name: string,
  env: NodeJS.ProcessEnv,
  extraEnv: Record<string, string>,
  { runs = 1, idle = false, dataDir }: { runs?: number; idle?: boolean; dataDir?: string },
): Promise<StartRow> {
  const health: number[] = [];
  const app: number[] = [];
  const ready: number[] = [];
  let idleRssMb: number | undefined;
  for (let i = 0; i < runs; i += 1) {
    const server = await startAppServer({
      command: o.command ?? 'npm start -s',
      startupTimeoutMs: o.startupTimeoutMs,
      signal: o.signal,
      env,
      extraEnv,
      dataDir,
      waitReady: true,
    });
    try {
      health.push(server.startupMs);
      app.push(server.appMs);
      ready.push(server.readyMs ?? NaN);
      if (idle && i === 0) idleRssMb = await idleRss(server, o.idleSeconds);
    } finally {
      await server.stop();
    }
  }
  return { name, healthMs: median(health), appMs: median(app), readyMs: median(ready), runs, idleRssMb };
}

export async function runStartupBench(o: StartupOptions): Promise<StartupReport> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
  const embedded = { ...o.env };
  delete embedded.DATABASE_URL;
  delete embedded.REDIS_URL;
  const templates = { EMBEDDED_TEMPLATE_DIR: path.join(scratch, 'templates') };
  const rows: StartRow[] = [];
  try {
    const bare = await bareNode();
    // A fresh checkout: no build stamp (the build runs), no ready database for new folders yet.
    rmSync(path.join(REPO_ROOT, 'dist', '.build-stamp'), { force: true });
    rows.push(
      await startRow(o, 'npm start, fresh checkout: build, migrate, seed', embedded, templates, {
        dataDir: path.join(scratch, 'first'),
      }),
    );
    const folder = path.join(scratch, 'data');
    rows.push(await startRow(o, 'npm start, new DATA_DIR', embedded, templates, { dataDir: folder, idle: true }));
    rows.push(
      await startRow(o, 'npm start, existing DATA_DIR', embedded, templates, { dataDir: folder, runs: REPEATS }),
    );
    rows.push(
      await startRow(
        o,
        'npm start, EMBEDDED_TEMPLATE_DIR=off, new DATA_DIR',
        embedded,
        { EMBEDDED_TEMPLATE_DIR: 'off' },
        { dataDir: path.join(scratch, 'off'), idle: true },
      ),
    );
    if (o.env.DATABASE_URL && o.env.REDIS_URL) rows.push(...(await postgresRows(o)));
    return {
      bareNodeMs: bare.ms,
      bareNodeRssMb: bare.rssMb,
      rows,
      idleSeconds: o.idleSeconds,
      worldBuildMs: measureWorldBuild(),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** PostgreSQL + Redis: a fresh schema (migrated and seeded by the start), then a restart on it. */
async function postgresRows(o: StartupOptions): Promise<StartRow[]> {
  const schema = `bench_startup_${process.pid}_${Date.now().toString(36)}`;
  const url = new URL(o.env.DATABASE_URL!);
  url.searchParams.set('schema', schema);
  const env = { ...o.env, DATABASE_URL: url.toString() };
  const extra = { REDIS_KEY_PREFIX: `${schema}:` };
  try {
    return [
      await startRow(o, 'npm start, PostgreSQL + Redis, fresh schema', env, extra, { idle: true }),
      await startRow(o, 'npm start, PostgreSQL + Redis, restarted on that schema', env, extra, { idle: true }),
    ];
  } finally {
    const pg = new Client({ connectionString: o.env.DATABASE_URL });
    await pg.connect();
    await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pg.end();
  }
}

export function formatStartupTable(r: StartupReport): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const head = [
    'start (spawn to …)',
    '/health 200',
    'app /health',
    '/health/ready 200',
    `idle RSS (${r.idleSeconds} s)`,
  ];
  const rows = [
    head,
    ['bare Node http server (median of 3)', s(r.bareNodeMs), '', '', `${r.bareNodeRssMb} MB`],
    ...r.rows.map((row) => [
      row.runs > 1 ? `${row.name} (median of ${row.runs})` : row.name,
      s(row.healthMs),
      s(row.appMs),
      s(row.readyMs),
      row.idleRssMb === undefined ? '' : `${row.idleRssMb} MB`,
    ]),
    [`simulated world build, in process (median of ${WORLD_BUILDS})`, `${Math.round(r.worldBuildMs)} ms`, '', '', ''],
  ];
  const widths = head.map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

if (require.main === module) {
  const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
  runStartupBench({
    command: process.env.BENCH_SERVER_CMD || undefined,
    env: process.env,
    startupTimeoutMs: 180_000,
    idleSeconds,
  }).then(
    (report) => process.stdout.write(`${formatStartupTable(report)}\n`),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
