/**
 * Keeps the Dockerfile honest without building an image: CI runs the commands the
 * Dockerfile runs.
 *
 *   node -r ./scripts/register.js scripts/check-dockerfile.ts check
 *     reads the Dockerfile and fails unless it has the expected shape: every RUN is an
 *     `npm ci` install or a command CI runs, a non-root runtime user, HOST=0.0.0.0,
 *     a HEALTHCHECK on /health/ready through node, and CMD `node dist/main.js` with the Node flags
 *     `npm start` gives it (package.json).
 *   DATABASE_URL=… REDIS_URL=… node -r ./scripts/register.js scripts/check-dockerfile.ts run
 *     does the check, then runs the Dockerfile's build commands here (its `npm ci` is CI's own
 *     install step, from the same lockfile), starts its CMD with the runtime stage's ENV
 *     (production: fresh random secrets) and waits for /health/ready to answer 200.
 */
import { execSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string;
  instructions: Instruction[];
}

/** What CI runs for the image: build commands, then the runtime's command with its environment. */
export interface DockerPlan {
  /** `npm ci` lines: CI's install step covers them (same lockfile). */
  installs: string[];
  /** The other RUN lines, which CI runs in the checkout. */
  builds: string[];
  cmd: string[];
  env: Record<string, string>;
}

/** Install commands CI's own install step stands for. */
const INSTALL = /^npm ci( --omit=dev)?( --no-audit)?( --no-fund)?$/;
/** Build commands CI runs as they are. */
const BUILD_COMMANDS = new Set(['npm run build']);

/** Splits a Dockerfile into stages of instructions (continuation lines joined, comments dropped). */
export function parseDockerfile(text: string): Stage[] {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    logical.push((pending + line).trim());
    pending = '';
  }
  if (pending) logical.push(pending.trim());
  const stages: Stage[] = [];
  for (const line of logical) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    if (instruction.keyword === 'FROM') {
      const name = /\bAS\s+(\S+)$/i.exec(instruction.args)?.[1] ?? String(stages.length);
      stages.push({ name, instructions: [] });
    } else {
      if (stages.length === 0) throw new Error(`instruction before FROM: ${line}`);
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return stages;
}

/** `["node", "x"]` (exec form) or `node x` (shell form) as words. */
function words(args: string): string[] {
  if (args.startsWith('[')) return JSON.parse(args) as string[];
  return args.split(/\s+/);
}

/** `ENV A=1 B=2` pairs (the key=value form). */
function envPairs(args: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) out[m[1]] = m[2].replace(/^"|"$/g, '');
  return out;
}

/** Checks the Dockerfile's shape; returns what CI must run, or the problems found. */
/** The Node flags `npm start` runs the server with (`exec node <flags> dist/main.js` in package.json). */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const m = /\bexec node ((?:--\S+\s+)*)dist\/main\.js\b/.exec(pkg.scripts.start);
  if (!m) throw new Error('package.json: `start` must end with `exec node [flags] dist/main.js`');
  return m[1].trim().split(/\s+/).filter(Boolean);
}

export function checkDockerfile(text: string): { errors: string[]; plan: DockerPlan } {
  const errors: string[] = [];
  const stages = parseDockerfile(text);
  const plan: DockerPlan = { installs: [], builds: [], cmd: [], env: {} };
  if (stages.length < 2) errors.push('expected a multi-stage build (a build stage and a runtime stage)');
  for (const stage of stages) {
    for (const i of stage.instructions.filter((x) => x.keyword === 'RUN')) {
      if (INSTALL.test(i.args)) plan.installs.push(i.args);
      else if (BUILD_COMMANDS.has(i.args)) plan.builds.push(i.args);
      else errors.push(`stage ${stage.name}: RUN ${i.args} is not a command CI runs`);
    }
  }
  if (!plan.installs.some((c) => !c.includes('--omit=dev'))) errors.push('no `npm ci` installs the build stage');
  if (!plan.builds.includes('npm run build')) errors.push('no `RUN npm run build`');
  const runtime = stages.at(-1);
  if (!runtime) return { errors: [...errors, 'no stage'], plan };
  const last = (keyword: string) => runtime.instructions.filter((i) => i.keyword === keyword).at(-1);
  for (const i of runtime.instructions.filter((x) => x.keyword === 'ENV')) Object.assign(plan.env, envPairs(i.args));
  if (plan.env.HOST !== '0.0.0.0') errors.push('the runtime stage must set HOST=0.0.0.0');
  const user = last('USER')?.args;
  if (!user || user === 'root' || user.startsWith('0')) errors.push('the runtime stage must run as a non-root USER');
  const cmd = last('CMD');
  plan.cmd = cmd ? words(cmd.args) : [];
  const expected = ['node', ...startFlags(), 'dist/main.js'];
  if (plan.cmd.join(' ') !== expected.join(' ')) errors.push(`CMD must be ${JSON.stringify(expected)} (npm start's)`);
  const health = last('HEALTHCHECK')?.args ?? '';
  const healthCmd = /\bCMD\s+(.*)$/.exec(health)?.[1];
  const probe = healthCmd ? words(healthCmd) : [];
  if (probe[0] !== 'node' || !probe.join(' ').includes('/health/ready')) {
    errors.push('HEALTHCHECK must probe /health/ready with node (the slim image has no curl)');
  }
  return { errors, plan };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** The secrets production refuses to start without: fresh random ones for this run. */
function productionSecrets(): Record<string, string> {
  const secret = () => randomBytes(32).toString('hex');
  return {
    AUTH_JWT_SECRET: secret(),
    WALLET_AUTH_JWT_SECRET: secret(),
    ADMIN_TOKEN: secret(),
    REWARDS_ADMIN_TOKEN: secret(),
    FEED_INGEST_TOKEN: secret(),
    CURSOR_SECRET: secret(),
    AUTH_JWT_ISSUER: 'ci',
    AUTH_JWT_AUDIENCE: 'ci',
    ALLOW_SIMULATED_VENUES: 'true',
  };
}

async function runPlan(plan: DockerPlan): Promise<void> {
  const { DATABASE_URL, REDIS_URL } = process.env;
  if (!DATABASE_URL || !REDIS_URL) throw new Error('run needs DATABASE_URL and REDIS_URL');
  for (const c of plan.installs) process.stdout.write(`covered by CI's install step: ${c}\n`);
  for (const c of plan.builds) {
    process.stdout.write(`$ ${c}\n`);
    execSync(c, { cwd: ROOT, stdio: 'inherit' });
  }
  const port = await freePort();
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...plan.env,
    ...productionSecrets(),
    PORT: String(port),
    DATABASE_URL,
    REDIS_URL,
    LOG_LEVEL: 'warn',
  };
  process.stdout.write(`$ ${plan.cmd.join(' ')}  (the runtime stage's ENV, PORT=${port})\n`);
  const child = spawn(plan.cmd[0], plan.cmd.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      const status = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) break;
      if (Date.now() > deadline) throw new Error(`/health/ready did not answer 200 (last: ${status})`);
      await new Promise((r) => setTimeout(r, 500));
    }
    process.stdout.write('/health/ready: 200\n');
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
  }
  const code = await exited;
  if (code !== 0) throw new Error(`the server stopped with exit code ${code}`);
}

async function main(): Promise<void> {
  const mode = process.argv[2] ?? 'check';
  const { errors, plan } = checkDockerfile(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
  if (errors.length > 0) {
    process.stderr.write(`Dockerfile:\n${errors.map((e) => `  - ${e}`).join('\n')}\n`);
    process.exit(1);
  }
  if (mode === 'run') await runPlan(plan);
  else if (mode !== 'check') throw new Error(`unknown mode ${mode} (check | run)`);
  process.stdout.write('Dockerfile: ok\n');
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
