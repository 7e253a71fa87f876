import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { freePort, startServerProcess, type ServerProcess } from '../../support/server-process';
import { eventually } from '../../support/wait';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** `npm start`'s build step: compiles to dist/ unless the build there is fresh. */
function buildIfStale() {
  return spawnSync(process.execPath, ['scripts/build.js', '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
}

describe('the production build (dist/)', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  const schema = `build_${randomUUID().replace(/-/g, '').slice(0, 10)}`;

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (process.env.DATABASE_URL) {
      const pg = new Client({ connectionString: process.env.DATABASE_URL });
      await pg.connect();
      await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pg.end();
    }
  });

  it('compiles, and a second run finds it fresh', () => {
    const first = buildIfStale();
    expect(first.status).toBe(0);
    expect(existsSync(path.join(ROOT, 'dist', 'main.js'))).toBe(true);
    expect(existsSync(path.join(ROOT, 'dist', 'src', 'server.js.map'))).toBe(true);
    const second = buildIfStale();
    expect(second.status).toBe(0);
    expect(second.stderr).not.toMatch(/built \d+ files/);
  });

  it('`node dist/main.js` serves /health, /health/ready, GraphQL and REST', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'build-'));
    const env: Record<string, string> = { SIM_TRADE_RATE: '0', SIM_BACKFILL_TRADES: '0', DATA_DIR: dataDir };
    if (process.env.DATABASE_URL) {
      const url = new URL(process.env.DATABASE_URL);
      url.searchParams.set('schema', schema);
      env.DATABASE_URL = url.toString();
    }
    if (process.env.REDIS_URL)
      Object.assign(env, { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: `build:${randomUUID()}:` });
    server = await startServerProcess(env, await freePort(), 'build');
    const s = server;
    // The build reads what the sources read relative to themselves: package.json (the version), prisma/
    // (migrations were applied), the GraphiQL assets, the schema engine's wasm.
    const health = (await (await fetch(`${s.url}/health`)).json()) as { version: string };
    expect(health.version).toMatch(/^\d+\.\d+\.\d+/);
    await eventually(
      async () => ((await fetch(`${s.url}/health/ready`)).status === 200 ? true : undefined),
      '/health/ready 200',
      30_000,
    );
    const events = await fetch(`${s.url}/api/events?pageSize=2`);
    expect(events.status).toBe(200);
    expect(((await events.json()) as { data: unknown[] }).data).toHaveLength(2);
    const gql = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ health { status } }' }),
    });
    expect(await gql.json()).toEqual({ data: { health: { status: 'ok' } } });
    const graphiql = await fetch(`${s.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(graphiql.status).toBe(200);
    expect(await graphiql.text()).toContain('GraphiQL');
    if (!process.env.DATABASE_URL) {
      // The embedded database admits one process: a second server on the folder says who holds it.
      const second = spawnSync(process.execPath, ['dist/main.js'], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 30_000,
        env: { ...process.env, ...env, PORT: String(await freePort()) },
      });
      expect(second.status).toBe(1);
      const owner = JSON.parse(readFileSync(path.join(dataDir, 'server.json'), 'utf8')) as { pid: number; url: string };
      expect(second.stderr).toContain(
        `DATA_DIR ${dataDir} is in use by the server running as process ${owner.pid} at ${owner.url}`,
      );
      expect((await fetch(`${s.url}/health`)).status).toBe(200);
    }
    expect(await s.stop()).toBe(0);
    server = undefined;
  }, 120_000);
});
