/**
 * Start-up and idle memory of the embedded server: spawn to the first
 * `/health` 200 with an empty `DATA_DIR`, then again on the folder that start
 * left, and the resident memory `/health` reports after the first start has
 * been idle a while (its start-up work done, nothing asked of it). Also the
 * build of the simulated world every start makes, in this process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSimulatedWorld } from '../../src/venues';
import { sleep } from '../support/wait';
import { startAppServer } from './server-process';

export interface StartupReport {
  /** Spawn to `/health` 200 on an empty data folder, ms. */
  coldEmptyMs: number;
  /** The same on the folder the first start left, ms. */
  coldExistingMs: number;
  /** `/health`'s `memoryRssMb` after {@link idleSeconds} of idle. */
  idleRssMb: number;
  idleSeconds: number;
  /** Building the simulated world (default seed) in this process, ms: the median of {@link WORLD_BUILDS}. */
  worldBuildMs: number;
}

/** How many simulated world builds {@link StartupReport.worldBuildMs} is the median of (the first warms up). */
export const WORLD_BUILDS = 5;

/** The most a world build may take (ms): every start and every test app makes one. Over it, the part fails. */
export const WORLD_BUILD_BUDGET_MS = 1_000;

/** The median time of {@link WORLD_BUILDS} builds of the simulated world with the default seed, ms. */
export function measureWorldBuild(): number {
  const times: number[] = [];
  for (let i = 0; i < WORLD_BUILDS; i += 1) {
    const started = performance.now();
    createSimulatedWorld();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

export interface StartupOptions {
  command?: string;
  env: NodeJS.ProcessEnv;
  startupTimeoutMs: number;
  idleSeconds: number;
  signal?: AbortSignal;
}

export async function runStartupBench(o: StartupOptions): Promise<StartupReport> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
  const env = { ...o.env };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  try {
    const first = await startAppServer({ ...o, env, dataDir });
    let idleRssMb: number;
    try {
      await sleep(o.idleSeconds * 1000);
      const health = (await (await fetch(`${first.baseUrl}/health`)).json()) as { memoryRssMb?: number };
      if (typeof health.memoryRssMb !== 'number') throw new Error('/health reported no memoryRssMb');
      idleRssMb = health.memoryRssMb;
    } finally {
      await first.stop();
    }
    const second = await startAppServer({ ...o, env, dataDir });
    await second.stop();
    return {
      coldEmptyMs: first.startupMs,
      coldExistingMs: second.startupMs,
      idleRssMb,
      idleSeconds: o.idleSeconds,
      worldBuildMs: measureWorldBuild(),
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatStartupTable(r: StartupReport): string {
  const rows = [
    ['cold start, empty DATA_DIR (spawn to /health 200)', `${(r.coldEmptyMs / 1000).toFixed(2)} s`],
    ['cold start, existing DATA_DIR', `${(r.coldExistingMs / 1000).toFixed(2)} s`],
    [`idle RSS, embedded, after ${r.idleSeconds} s idle`, `${r.idleRssMb} MB`],
    [`simulated world build, in process (median of ${WORLD_BUILDS})`, `${Math.round(r.worldBuildMs)} ms`],
  ];
  const w = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, value]) => `${name.padEnd(w)}  ${value}`).join('\n');
}
