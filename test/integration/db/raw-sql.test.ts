/**
 * Statements run on the driver adapter outside Prisma (`Database.sql`), against
 * the back end of the run: PGlite by default, PostgreSQL when DATABASE_URL is set.
 */
import { afterCommit } from '../../../src/db/commit-hooks';
import type { Database } from '../../../src/db/database';
import { Prisma } from '../../../src/db/generated/client';
import { isRetryableWriteConflict, withWriteRetry } from '../../../src/modules/ingestion/write-retry';
import { openTestDatabase } from '../../support/db';

let db: Database;

beforeAll(async () => {
  db = await openTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

/** A statement that fails with the given SQLSTATE, as the server reports it. */
const failWith = (sqlState: string) =>
  `DO $$ BEGIN RAISE EXCEPTION 'failing on purpose' USING ERRCODE = '${sqlState}'; END $$`;

describe('Database.sql', () => {
  it('binds text, integer, boolean, null and text-array parameters and keys rows by column', async () => {
    const rows = await db.sql.query<{ t: string; n: number; b: boolean; z: string | null; arr: string[]; len: number }>(
      'SELECT $1::text AS t, $2::int AS n, $3::boolean AS b, $4::text AS z, $5::text[] AS arr, ' +
        'cardinality($5::text[]) AS len',
      ['it\'s "quoted"', 42, true, null, ['a', 'b,c', '{d}']],
    );
    expect(rows).toEqual([{ t: 'it\'s "quoted"', n: 42, b: true, z: null, arr: ['a', 'b,c', '{d}'], len: 3 }]);
  });

  it('reads a JSON parameter as a record set and returns no rows when none match', async () => {
    const json = JSON.stringify([
      { k: 'x', v: '1.5' },
      { k: 'y', v: '2' },
    ]);
    const rows = await db.sql.query<{ k: string; v: string }>(
      'SELECT r.k, (r.v::numeric * 2)::text AS v FROM json_to_recordset($1::json) AS r(k text, v text) ORDER BY r.k',
      [json],
    );
    expect(rows).toEqual([
      { k: 'x', v: '3.0' },
      { k: 'y', v: '4' },
    ]);
    expect(await db.sql.query('SELECT 1 AS one WHERE false', [])).toEqual([]);
  });

  it('counts its statements with the database', async () => {
    const before = db.queryCount();
    await db.sql.query('SELECT 1 AS one', []);
    await db.sql.query('SELECT 2 AS two', []);
    expect(db.queryCount() - before).toBe(2);
  });

  it(
    "reports the server's SQLSTATE, so a deadlock or serialization failure is retried and other errors are " + 'not',
    async () => {
      for (const [state, retryable] of [
        ['40P01', true],
        ['40001', true],
        ['23505', false],
      ] as const) {
        const err = await db.sql.query(failWith(state), []).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toMatchObject({ name: 'DriverAdapterError', cause: { originalCode: state } });
        expect(isRetryableWriteConflict(err)).toBe(retryable);
      }
      let runs = 0;
      const out = await withWriteRetry(
        async () => {
          runs += 1;
          if (runs === 1) await db.sql.query(failWith('40P01'), []);
          return db.sql.query<{ ok: boolean }>('SELECT true AS ok', []);
        },
        { backoffMs: 1 },
      );
      expect([out, runs]).toEqual([[{ ok: true }], 2]);
    },
  );
});

describe('Database.sql.transaction', () => {
  const table = `lean_tx_${process.pid}`;

  beforeAll(async () => {
    await db.sql.query(`CREATE TABLE IF NOT EXISTS ${table} (k text PRIMARY KEY, n bigint NOT NULL)`, []);
  });

  afterAll(async () => {
    await db.sql.query(`DROP TABLE IF EXISTS ${table}`, []);
  });

  /** A row in Prisma's answer to the same statement: the values the lean client must give too. */
  const AT = new Date('2026-11-28T01:02:03.456Z');
  const DOC = JSON.stringify({ a: [1, 'b'] });
  const VALUES = Prisma.sql`SELECT ${123n}::bigint AS big, ${7}::int AS small, ${AT}::timestamp AS at,
    ${'1.25'}::numeric AS dec, ${true}::boolean AS yes, ${DOC}::jsonb AS doc, NULL::text AS none,
    ${['x', 'y']}::text[] AS list, 'open'::text AS word`;

  it("answers with Prisma's values: bigint, int, Date, Decimal, boolean, JSON, null, arrays", async () => {
    const [viaPrisma] = await db.prisma.$queryRaw<Record<string, unknown>[]>(VALUES);
    const [lean] = await db.sql.transaction((tx) => tx.$queryRaw<Record<string, unknown>[]>(VALUES));
    expect(lean).toEqual(viaPrisma);
    expect(lean).toMatchObject({ big: 123n, small: 7, yes: true, doc: { a: [1, 'b'] }, none: null, list: ['x', 'y'] });
    expect(lean.at).toEqual(new Date('2026-11-28T01:02:03.456Z'));
    expect(String(lean.dec)).toBe('1.25');
  });

  it('commits its statements together and runs afterCommit hooks once committed', async () => {
    const ran: string[] = [];
    const before = db.queryCount();
    const out = await db.sql.transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO ${Prisma.raw(table)} (k, n) VALUES (${'a'}, ${1n})`;
      await tx.$executeRaw(Prisma.sql`INSERT INTO ${Prisma.raw(table)} (k, n) VALUES (${'b'}, ${2n})`);
      expect(afterCommit(tx, () => ran.push('hook'))).toBe(true);
      expect(ran).toEqual([]);
      return 'done';
    });
    expect([out, ran]).toEqual(['done', ['hook']]);
    // BEGIN, two statements, COMMIT: counted as Prisma's transactions are.
    expect(db.queryCount() - before).toBe(4);
    const rows = await db.sql.query<{ k: string; n: string }>(`SELECT k, n::text AS n FROM ${table} ORDER BY k`, []);
    expect(rows).toEqual([
      { k: 'a', n: '1' },
      { k: 'b', n: '2' },
    ]);
  });

  it('rolls back whole when its work throws or a statement fails, and its hooks never run', async () => {
    const ran: string[] = [];
    await expect(
      db.sql.transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO ${Prisma.raw(table)} (k, n) VALUES (${'c'}, ${3n})`;
        afterCommit(tx, () => ran.push('hook'));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await expect(
      db.sql.transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO ${Prisma.raw(table)} (k, n) VALUES (${'d'}, ${4n})`;
        afterCommit(tx, () => ran.push('hook'));
        // The key is taken: the statement fails and the row before it goes too.
        await tx.$executeRaw`INSERT INTO ${Prisma.raw(table)} (k, n) VALUES (${'a'}, ${5n})`;
      }),
    ).rejects.toMatchObject({ name: 'DriverAdapterError', cause: { originalCode: '23505' } });
    expect(ran).toEqual([]);
    const keys = await db.sql.query<{ k: string }>(`SELECT k FROM ${table} ORDER BY k`, []);
    expect(keys.map((r) => r.k)).toEqual(['a', 'b']);
    // The connection went back clean: the next transaction works.
    expect(await db.sql.transaction((tx) => tx.$queryRaw<{ one: number }[]>`SELECT 1::int AS one`)).toEqual([
      { one: 1 },
    ]);
  });
});
