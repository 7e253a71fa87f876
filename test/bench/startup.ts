/**
 * Start-up and idle memory of the embedded server: spawn to the first
 * `/health` 200 with an empty `DATA_DIR`, then again on the folder that start
 * left, and the resident memory `/health` reports after the first start has
 * been idle a while (its start-up work done, nothing asked of it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startAppServer } from './server-process';

export interface StartupReport {
  /** Spawn to `/health` 200 on an empty data folder, ms. */
  coldEmptyMs: number;
  /** The same on the folder the first start left, ms. */
  coldExistingMs: number;
  /** `/health`'s `memoryRssMb` after {@link idleSeconds} of idle. */
  idleRssMb: number;
  idleSeconds: number;
}

export interface StartupOptions {
  command?: string;
  env: NodeJS.ProcessEnv;
  startupTimeoutMs: number;
  idleSeconds: number;
  signal?: AbortSignal;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  ];
  const w = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, value]) => `${name.padEnd(w)}  ${value}`).join('\n');
}
