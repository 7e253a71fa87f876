/**
 * Statements run on the driver adapter outside Prisma (`Database.sql`), against
 * the back end of the run: PGlite by default, PostgreSQL when DATABASE_URL is set.
 */
import type { Database } from '../../../src/db/database';
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
