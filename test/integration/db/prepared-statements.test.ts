/**
 * PostgreSQL connections prepare each statement text once (`DATABASE_PREPARED_STATEMENTS`):
 * parsed and planned on its first run on a connection, then run by name.
 */
import { statementNames } from '../../../src/db/postgres.adapter';
import { openDatabase, type Database } from '../../../src/db/database';
import { describeOnPostgres } from '../../support/modes';
import { randomSchemaName, TEST_DATABASE_OPTIONS } from '../../support/db';

describe('statementNames', () => {
  it('gives one text one name, the same each time, and no name past its bound', () => {
    const name = statementNames(2);
    expect([name({ sql: 'SELECT 1' }), name({ sql: 'SELECT 2' }), name({ sql: 'SELECT 1' })]).toEqual([
      's1',
      's2',
      's1',
    ]);
    // Past the bound: the unnamed statement (pg parses it each time); the named ones keep their names.
    expect(name({ sql: 'SELECT 3' })).toBe('');
    expect(name({ sql: 'SELECT 3' })).toBe('');
    expect(name({ sql: 'SELECT 2' })).toBe('s2');
  });
});

describeOnPostgres('prepared statements on PostgreSQL', () => {
  const opened: { db: Database; schema: string }[] = [];
  async function open(preparedStatements?: number): Promise<Database> {
    const schema = randomSchemaName();
    const db = await openDatabase({
      ...TEST_DATABASE_OPTIONS,
      databaseUrl: process.env.DATABASE_URL,
      schema,
      poolSize: 1,
      ...(preparedStatements !== undefined && { preparedStatements }),
    });
    opened.push({ db, schema });
    return db;
  }
  afterAll(async () => {
    for (const { db, schema } of opened) {
      await db.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await db.close();
    }
  });

  /** The texts the (only) connection has prepared, after running `text` twice on it. */
  async function preparedAfter(db: Database, text: string): Promise<string[]> {
    await db.sql.query(text, [7]);
    const rows = await db.sql.query<{ v: number }>(text, [8]);
    expect(rows).toEqual([{ v: 8 }]);
    const prepared = await db.sql.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements', []);
    return prepared.map((r) => r.statement);
  }

  it('prepares a statement once per connection by default, and answers it as before', async () => {
    const db = await open();
    const text = 'SELECT $1::int AS v /* prepared by default */';
    expect(await preparedAfter(db, text)).toContain(text);
    // Prisma's own statements go the same way.
    await db.prisma.appSetting.findMany({ where: { key: 'none' } });
    const prepared = await db.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE '%"AppSetting"%'`,
      [],
    );
    expect(prepared[0].n).toBeGreaterThanOrEqual(1);
  });

  it('prepares nothing with 0 (a pooler in transaction mode)', async () => {
    const db = await open(0);
    expect(await preparedAfter(db, 'SELECT $1::int AS v /* unnamed */')).toEqual([]);
  });
});
