import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { freePort, startServerProcess, type ServerProcess } from '../../support/server-process';
import { startTcpProxy, targetOf, throughProxy, type TcpProxy } from '../../support/tcp-proxy';
import { eventually } from '../../support/wait';

/** Liveness and readiness as an orchestrator sees them: status and body of both. */
async function probe(s: ServerProcess) {
  const [live, ready] = await Promise.all([fetch(`${s.url}/health`), fetch(`${s.url}/health/ready`)]);
  return {
    live: live.status,
    ready: ready.status,
    body: (await ready.json()) as { status: string; reasons: string[]; database: string; redis: string },
  };
}

/** Probes until readiness answers `status` (with a reason matching `reason`), and returns that probe. */
function readinessBecomes(s: ServerProcess, status: number, reason?: RegExp) {
  return eventually(
    async () => {
      // Between the waiting server and the app, the port is briefly closed.
      const p = await probe(s).catch(() => undefined);
      if (!p) return undefined;
      const matches = p.ready === status && (!reason || p.body.reasons.some((r) => reason.test(r)));
      return matches ? p : undefined;
    },
    `readiness ${status} ${reason ?? ''}`,
    30_000,
  );
}

const QUIET = { SIM_TRADE_RATE: '0', SIM_BACKFILL_TRADES: '0', LOG_LEVEL: 'silent' };

describe('readiness while draining (either mode)', () => {
  let dataDir: string;
  let schema: string | undefined;
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (schema) {
      const pg = new Client({ connectionString: process.env.DATABASE_URL });
      await pg.connect();
      await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pg.end();
    }
  });

  it('answers 503 "draining" after SIGTERM while still serving, then exits cleanly', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'ready-'));
    const env: Record<string, string> = { ...QUIET, DATA_DIR: dataDir, SHUTDOWN_DRAIN_MS: '15000' };
    if (process.env.DATABASE_URL) {
      schema = `ready_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
      const url = new URL(process.env.DATABASE_URL);
      url.searchParams.set('schema', schema);
      env.DATABASE_URL = url.toString();
    }
    if (process.env.REDIS_URL)
      Object.assign(env, { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: `ready:${randomUUID()}:` });
    const server = await startServerProcess(env, await freePort());
    const ready = await readinessBecomes(server, 200);
    expect(ready.body).toMatchObject({ status: 'ready', reasons: [], database: 'ok' });
    const exited = server.stop();
    const draining = await readinessBecomes(server, 503, /^draining/);
    expect(draining.live).toBe(200);
    expect(draining.body.status).toBe('not_ready');
    expect(await exited).toBe(0);
  }, 120_000);
});

// A database and a Redis that become unreachable: a server process reaches both through proxies the test cuts.
const shared = process.env.DATABASE_URL && process.env.REDIS_URL;
const describeShared = shared ? describe : describe.skip;

describeShared('readiness when PostgreSQL or Redis is unreachable', () => {
  const schema = `ready_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  let dbProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let server: ServerProcess;

  beforeAll(async () => {
    dbProxy = await startTcpProxy(targetOf(process.env.DATABASE_URL!, 5432));
    redisProxy = await startTcpProxy(targetOf(process.env.REDIS_URL!, 6379));
    const db = new URL(throughProxy(process.env.DATABASE_URL!, dbProxy));
    db.searchParams.set('schema', schema);
    server = await startServerProcess(
      {
        ...QUIET,
        DATABASE_URL: db.toString(),
        REDIS_URL: throughProxy(process.env.REDIS_URL!, redisProxy),
        REDIS_KEY_PREFIX: `ready:${randomUUID()}:`,
      },
      await freePort(),
    );
  }, 120_000);

  afterAll(async () => {
    dbProxy.restore();
    redisProxy.restore();
    await server?.stop();
    await Promise.all([dbProxy.close(), redisProxy.close()]);
    const pg = new Client({ connectionString: process.env.DATABASE_URL });
    await pg.connect();
    await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pg.end();
  });

  it('is ready with both reachable', async () => {
    const p = await readinessBecomes(server, 200);
    expect(p.body).toMatchObject({ status: 'ready', database: 'ok', redis: 'ok' });
  });

  it.each([
    ['database', () => dbProxy],
    ['redis', () => redisProxy],
  ] as const)(
    'answers 503 naming the %s while it is unreachable, stays alive, and recovers',
    async (what, proxy) => {
      proxy().cut();
      const down = await readinessBecomes(server, 503, new RegExp(`^${what}`));
      expect(down.live).toBe(200);
      expect(down.body).toMatchObject({ status: 'not_ready', [what]: 'unreachable' });
      proxy().restore();
      await readinessBecomes(server, 200);
      expect(server.child.exitCode).toBeNull();
    },
    90_000,
  );
});

describe('MIGRATE_ON_START=off on a database without the schema', () => {
  const pgIt = process.env.DATABASE_URL ? it : it.skip;
  const embeddedIt = process.env.DATABASE_URL ? it.skip : it;

  embeddedIt(
    'embedded: refuses to start, naming the setting (no other process can migrate PGlite)',
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'nomigrate-'));
      try {
        await expect(
          startServerProcess({ ...QUIET, DATA_DIR: dataDir, MIGRATE_ON_START: 'off' }, await freePort()),
        ).rejects.toThrow(/none of \d+ applied and MIGRATE_ON_START=off/);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  pgIt(
    'PostgreSQL: alive but not ready (naming the migrations) until another process migrates, then ready',
    async () => {
      const schema = `nomig_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
      const url = new URL(process.env.DATABASE_URL!);
      url.searchParams.set('schema', schema);
      const server = await startServerProcess(
        { ...QUIET, DATABASE_URL: url.toString(), MIGRATE_ON_START: 'off' },
        await freePort(),
        'source',
        'alive',
      );
      try {
        const waiting = await readinessBecomes(server, 503, /^migrations: none of \d+ applied/);
        expect(waiting.live).toBe(200);
        const migrate = spawnSync(process.execPath, ['-r', './scripts/register.js', 'scripts/migrate.ts', 'deploy'], {
          cwd: path.resolve(__dirname, '../../..'),
          env: { PATH: process.env.PATH, DATABASE_URL: process.env.DATABASE_URL, DATABASE_SCHEMA: schema },
          encoding: 'utf8',
        });
        expect(migrate.status).toBe(0);
        const ready = await readinessBecomes(server, 200);
        expect(ready.body.database).toBe('ok');
        expect(server.child.exitCode).toBeNull();
      } finally {
        await server.stop();
        const pg = new Client({ connectionString: process.env.DATABASE_URL });
        await pg.connect();
        await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pg.end();
      }
    },
    120_000,
  );
});
