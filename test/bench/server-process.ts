import { startFlags } from '../../scripts/check-dockerfile';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The repository root (this file lives in `test/bench/`). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** How long a SIGTERMed server may take to exit before SIGKILL (the app's default grace is 10 s). */
const STOP_GRACE_MS = 20_000;

/** How to start the application server. */
export interface AppServerOptions {
  /**
   * A command line (see {@link splitCommand}); when absent, what `npm start` runs: `node <its flags>
   * dist/main.js` (the flags read from package.json).
   */
  command?: string;
  /** Give up when `/health` has not answered 200 after this long. */
  startupTimeoutMs: number;
  /** The environment to derive the child's from (normally `process.env`). */
  env: NodeJS.ProcessEnv;
  /** Stops waiting for health (and the child) when aborted. */
  signal?: AbortSignal;
  /**
   * Set last, after the embedded-mode cleanup: a scenario's own settings (for
   * example a Redis it was explicitly given, under a prefix of its own).
   */
  extraEnv?: Record<string, string>;
  /** Embedded mode: this data folder (kept at stop) instead of a fresh temporary one. */
  dataDir?: string;
  /** Also wait for `/health/ready` 200 (and measure it). */
  waitReady?: boolean;
}

/** A started application server. */
export interface AppServer {
  baseUrl: string;
  /** What was started, for the report. */
  description: string;
  /** `embedded` (fresh temporary DATA_DIR) or `DATABASE_URL`. */
  database: 'embedded' | 'DATABASE_URL';
  /** From spawning the process to its first `/health` 200 (liveness, answered before the app is built), in ms. */
  startupMs: number;
  /** From spawning the process to the app's own `/health` 200 (not `status: starting`), in ms. */
  appMs: number;
  /** From spawning the process to `/health/ready` 200, in ms (with {@link AppServerOptions.waitReady}). */
  readyMs?: number;
  /** The last lines the child wrote (stdout and stderr). */
  output(): string;
  /** SIGTERM, wait for exit (SIGKILL after a grace period), remove the temp dir. Idempotent. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null; killed: boolean }>;
}

/** A port that was free a moment ago (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Keeps the last `max` lines of a child's output. */
function outputTail(max: number): { push(chunk: Buffer): void; text(): string } {
  const lines: string[] = [];
  let partial = '';
  return {
    push(chunk) {
      const parts = (partial + chunk.toString('utf8')).split('\n');
      partial = parts.pop() ?? '';
      lines.push(...parts);
      if (lines.length > max) lines.splice(0, lines.length - max);
    },
    text: () => [...lines, partial].filter((l) => l !== '').join('\n'),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Signals the child's whole process group (it was spawned detached, so it leads one). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** True once no process is left in the child's group (polled until `timeoutMs`). */
async function groupGone(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.pid === undefined) return true;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      process.kill(-child.pid, 0);
    } catch {
      return true;
    }
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
}

/**
 * Splits a command line into words, without a shell: whitespace separates words,
 * single or double quotes group them. No variables, globs, pipes or `&&`.
 */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: string | undefined;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unclosed ${quote} in command: ${line}`);
  if (inWord) words.push(word);
  return words;
}

/**
 * Starts the application as a child process on a free port and waits until
 * `GET /health` answers 200. The child leads its own process group, so anything
 * it spawns is stopped with it.
 */
export async function startAppServer(opts: AppServerOptions): Promise<AppServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...opts.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SIM_TRADE_RATE: '0',
    LOG_LEVEL: 'warn',
  };
  let dataDir: string | undefined;
  const database = opts.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded';
  if (database === 'embedded') {
    // A fresh embedded database; never point an embedded run at someone's Redis.
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    dataDir = opts.dataDir === undefined ? mkdtempSync(path.join(os.tmpdir(), 'bench-data-')) : undefined;
    env.DATA_DIR = opts.dataDir ?? dataDir;
  }
  Object.assign(env, opts.extraEnv);

  // By default what `npm start` runs: the production build with its Node flags.
  const flags = startFlags();
  const description = opts.command ?? ['node', ...flags, 'dist/main.js'].join(' ');
  const [file, ...args] = opts.command ? splitCommand(opts.command) : [process.execPath, ...flags, 'dist/main.js'];
  if (file === undefined) throw new Error('BENCH_SERVER_CMD is empty');
  // detached: the child leads its own process group, so stop() can signal all of it.
  const spawnedAt = performance.now();
  const child = spawn(file, args, { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const tail = outputTail(60);
  child.stdout?.on('data', (c: Buffer) => tail.push(c));
  child.stderr?.on('data', (c: Buffer) => tail.push(c));

  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    });
    child.once('error', (err) => {
      tail.push(Buffer.from(`spawn error: ${err.message}\n`));
      exit = exit ?? { code: null, signal: null };
      resolve();
    });
  });

  let stopped: ReturnType<AppServer['stop']> | undefined;
  const stop: AppServer['stop'] = () => {
    stopped ??= (async () => {
      let killed = false;
      if (!exit) {
        signalGroup(child, 'SIGTERM');
        const graceful = await Promise.race([exited.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
        if (!graceful) {
          killed = true;
          signalGroup(child, 'SIGKILL');
          await exited;
        }
      }
      // Anything the command started and left behind in its group gets a moment, then SIGKILL.
      if (!(await groupGone(child, 2_000))) signalGroup(child, 'SIGKILL');
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      return { code: exit?.code ?? null, signal: exit?.signal ?? null, killed };
    })();
    return stopped;
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  const server: AppServer = { baseUrl, description, database, startupMs: 0, appMs: 0, output: () => tail.text(), stop };
  try {
    const wait = (path: string, accept: (status: number, body: unknown) => boolean) =>
      waitFor(baseUrl, path, accept, opts.startupTimeoutMs, () => exit, opts.signal);
    await wait('/health', (status) => status === 200);
    server.startupMs = performance.now() - spawnedAt;
    // Until the app is built, the port answers liveness only (`status: starting`): load waits for the app.
    await wait('/health', (status, body) => status === 200 && (body as { status?: string }).status !== 'starting');
    server.appMs = performance.now() - spawnedAt;
    if (opts.waitReady) {
      await wait('/health/ready', (status) => status === 200);
      server.readyMs = performance.now() - spawnedAt;
    }
  } catch (err) {
    await stop();
    const output = tail.text();
    throw new Error(`${(err as Error).message}\n--- server output (last lines) ---\n${output || '(none)'}`);
  }
  return server;
}

async function waitFor(
  baseUrl: string,
  path: string,
  accept: (status: number, body: unknown) => boolean,
  timeoutMs: number,
  exitOf: () => { code: number | null; signal: NodeJS.Signals | null } | undefined,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (signal?.aborted) throw new Error('aborted while waiting for the server');
    const exit = exitOf();
    if (exit) throw new Error(`the server exited before it was healthy (code ${exit.code}, signal ${exit.signal})`);
    try {
      const res = await fetch(`${baseUrl}${path}`, { signal: AbortSignal.timeout(2_000) });
      const text = await res.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      if (accept(res.status, body)) return;
      last = `GET ${path} answered ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await sleep(10);
  }
  throw new Error(`the server was not healthy after ${Math.round(timeoutMs / 1000)} s (${last})`);
}
