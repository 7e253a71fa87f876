import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { openDatabase, type Database } from '../../../src/db/database';
import { isDatabaseUnreachable } from '../../../src/errors/database-unreachable';
import { toAppError } from '../../../src/errors/normalize-error';
import { randomSchemaName, TEST_DATABASE_OPTIONS } from '../../support/db';
import { startTcpProxy, targetOf, throughProxy, type TcpProxy } from '../../support/tcp-proxy';
import { eventually } from '../../support/wait';

/**
 * What PostgreSQL, `pg`, `@prisma/adapter-pg` and Prisma throw when the database cannot be
 * reached, produced for real (a TCP proxy the test cuts, a server-side termination, a listener
 * that never answers), and how the process reads it: a 503 `unavailable` with a Retry-After, and a
 * failure the statement observer is told of.
 */
const describePg = process.env.DATABASE_URL ? describe : describe.skip;

/** The error a call rejected with (fails when it resolved). */
async function failure(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

async function dropSchema(schema: string): Promise<void> {
  const pg = new Client({ connectionString: process.env.DATABASE_URL });
  await pg.connect();
  await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pg.end();
}

function expectUnavailable(err: unknown): void {
  expect(isDatabaseUnreachable(err)).toBe(true);
  const app = toAppError(err);
  expect(app).toMatchObject({ code: 'unavailable', details: { retryAfter: 2 } });
}

describePg('database outages as the process sees them (PostgreSQL)', () => {
  const schema = randomSchemaName();
  let proxy: TcpProxy;
  let db: Database;
  const outcomes: Array<{ ok: boolean; error?: unknown }> = [];

  beforeAll(async () => {
    proxy = await startTcpProxy(targetOf(process.env.DATABASE_URL!, 5432));
    db = await openDatabase({
      ...TEST_DATABASE_OPTIONS,
      databaseUrl: throughProxy(process.env.DATABASE_URL!, proxy),
      schema,
      poolSize: 3,
      connectTimeoutMs: 300,
    });
    db.observeStatements({
      succeeded: () => outcomes.push({ ok: true }),
      failed: (error) => outcomes.push({ ok: false, error }),
    });
  }, 120_000);

  afterAll(async () => {
    await db?.close().catch(() => undefined);
    await proxy?.close().catch(() => undefined);
    await dropSchema(schema);
  });

  beforeEach(() => {
    outcomes.length = 0;
  });

  it('does not take a statement the database refused for an outage', async () => {
    const syntax = await failure(() => db.prisma.$queryRawUnsafe('SELEC 1'));
    expect(isDatabaseUnreachable(syntax)).toBe(false);
    const missing = await failure(() => db.sql.query('SELECT * FROM "NoSuchTable"', []));
    expect(isDatabaseUnreachable(missing)).toBe(false);
    expect(toAppError(missing)).toBeNull();
  });

  it('reads a connection terminated under a running statement (57P01) as unreachable', async () => {
    const marker = `outage_${randomUUID().replace(/-/g, '')}`;
    const sleeping = failure(() => db.prisma.$queryRawUnsafe(`SELECT pg_sleep(30) AS ${marker}`));
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      await eventually(
        async () => {
          const r = await admin.query(
            'SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity ' +
              'WHERE query LIKE $1 AND pid <> pg_backend_pid()',
            [`%AS ${marker}%`],
          );
          return r.rows.some((row: { done: boolean }) => row.done) ? true : undefined;
        },
        'the sleeping statement terminated',
        10_000,
      );
    } finally {
      await admin.end();
    }
    const err = await sleeping;
    expectUnavailable(err);
    // The observer hears the driver adapter's error, before Prisma wraps it: unreachable too.
    expect(isDatabaseUnreachable(outcomes.find((o) => !o.ok)?.error)).toBe(true);
  });

  it('reads cut connections as unreachable on every path (model, raw, sql, transactions), and recovers', async () => {
    await db.prisma.$queryRawUnsafe('SELECT 1');
    proxy.cut();
    try {
      for (const call of [
        () => db.prisma.user.findMany({ take: 1 }),
        () => db.prisma.$queryRawUnsafe('SELECT 1'),
        () => db.sql.query('SELECT 1', []),
        () => db.prisma.$transaction(async (tx) => tx.user.findMany({ take: 1 })),
        () => db.prisma.$transaction([db.prisma.user.count()]),
      ]) {
        expectUnavailable(await failure(call));
      }
      expect(outcomes.some((o) => !o.ok && isDatabaseUnreachable(o.error))).toBe(true);
    } finally {
      proxy.restore();
    }
    outcomes.length = 0;
    await eventually(
      () =>
        db.prisma.$queryRawUnsafe('SELECT 1').then(
          () => true,
          () => undefined,
        ),
      'a query again',
    );
    expect(outcomes.some((o) => o.ok)).toBe(true);
  });

  it('reads a refused connection and a server that never answers (connect timeout) as unreachable', async () => {
    // Nothing listens on the proxy's port: connections are refused.
    const port = proxy.port;
    await proxy.close();
    // Idle pooled connections were closed with the proxy: each call needs a new one.
    expectUnavailable(await failure(() => db.prisma.user.findMany({ take: 1 })));
    expectUnavailable(await failure(() => db.sql.query('SELECT 1', [])));
    // A listener that accepts and never answers: the connect timeout (300 ms here) ends the wait.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(port, '127.0.0.1', () => resolve()));
    try {
      expectUnavailable(await failure(() => db.prisma.user.findMany({ take: 1 })));
    } finally {
      silent.close();
    }
  });
});

describePg('a statement the database cancels for taking too long (statement_timeout, PostgreSQL)', () => {
  const schema = randomSchemaName();
  let db: Database;
  let holder: Client;

  beforeAll(async () => {
    db = await openDatabase({
      ...TEST_DATABASE_OPTIONS,
      databaseUrl: process.env.DATABASE_URL,
      schema,
      poolSize: 2,
      statementTimeoutMs: 300,
    });
    holder = new Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
  }, 120_000);

  afterAll(async () => {
    await holder?.query('ROLLBACK').catch(() => undefined);
    await holder?.end().catch(() => undefined);
    await db?.close().catch(() => undefined);
    await dropSchema(schema);
  });

  it('is a 503 with Retry-After, not an outage, on every path; the next statement runs', async () => {
    const started = Date.now();
    const slow = await failure(() => db.prisma.$queryRawUnsafe('SELECT pg_sleep(5)'));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(isDatabaseUnreachable(slow)).toBe(false);
    expect(toAppError(slow)).toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/did not answer in time/),
      details: { retryAfter: 2 },
    });

    // A table locked by another session (a long migration, a stuck transaction): waited on no longer.
    await holder.query('BEGIN');
    await holder.query(`LOCK TABLE "${schema}"."User" IN ACCESS EXCLUSIVE MODE`);
    const locked = await failure(() => db.prisma.user.count());
    expect(toAppError(locked)).toMatchObject({ code: 'unavailable' });
    const raw = await failure(() => db.sql.query(`SELECT count(*) FROM "${schema}"."User"`, []));
    expect(toAppError(raw)).toMatchObject({ code: 'unavailable' });
    await holder.query('ROLLBACK');

    await expect(db.prisma.user.count()).resolves.toBe(0);
  });
});
