import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<number | null>;
}

/** How a server process runs: the TypeScript sources through the loader, or the production build (`dist/`). */
export type ServerEntry = 'source' | 'build';

const ENTRY_ARGS: Record<ServerEntry, string[]> = {
  source: ['-r', './scripts/register.js', 'src/main.ts'],
  build: ['dist/main.js'],
};

/**
 * What {@link startServerProcess} waits for: `app`, the app's own `/health` 200 (the process listens
 * before the app is built, answering `/health` with `status: starting` meanwhile); `alive`, any
 * `/health` 200 (a process waiting for something else, such as another process's migrations).
 */
export type ServerWait = 'app' | 'alive';

/** Starts `src/main.ts` (or `dist/main.js`) as a real process on the given port and waits for /health. */
export async function startServerProcess(
  env: Record<string, string>,
  port: number,
  entry: ServerEntry = 'source',
  wait: ServerWait = 'app',
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ENTRY_ARGS[entry], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    try {
      const r = await fetch(`${url}/health`);
      const body = (await r.json().catch(() => ({}))) as { status?: string };
      if (r.status === 200 && (wait === 'alive' || body.status !== 'starting')) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        // Already ended: by itself, or killed by a signal (then exitCode stays null).
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** What a CLI run printed, trimmed, and how it exited. */
export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `src/cli/<script>` to its end, with only PATH, HOME, a silent log and `env` in its environment. */
export function runCli(script: string, args: string[], env: Record<string, string>): CliRun {
  const r = spawnSync(process.execPath, ['-r', './scripts/register.js', `src/cli/${script}`, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env },
  });
  return { status: r.status, stdout: r.stdout.trim(), stderr: r.stderr.trim() };
}
