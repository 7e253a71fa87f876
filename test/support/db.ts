/**
 * Test databases. With `DATABASE_URL` set: PostgreSQL, in a fresh schema per call
 * (`t_<random>`), dropped on close. Otherwise: an in-memory PGlite. Migrations applied.
 */
import { randomBytes } from 'node:crypto';
import { openDatabase, type Database, type DatabaseOptions } from '../../src/db/database';
import type { StatementObserver } from '../../src/db/query-counting.adapter';
import { PROJECT_PGLITE_TEMPLATE_DIR } from '../../src/db/project-paths';

/** Options shared by every database tests open: the PGlite template cache. */
export const TEST_DATABASE_OPTIONS: DatabaseOptions = { pgliteTemplateDir: PROJECT_PGLITE_TEMPLATE_DIR };

/** A random schema name for one test database. */
export function randomSchemaName(): string {
  return `t_${randomBytes(6).toString('hex')}`;
}

/**
 * Opens a migrated, empty database of its own for a test file. `close()` drops the
 * PostgreSQL schema (or discards the in-memory PGlite).
 */
export async function openTestDatabase(): Promise<Database> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  if (!databaseUrl) return openDatabase({ ...TEST_DATABASE_OPTIONS });
  const schema = randomSchemaName();
  const db = await openDatabase({ ...TEST_DATABASE_OPTIONS, databaseUrl, schema, poolSize: 5 });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      try {
        await db.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await db.close();
      }
    })();
    return closing;
  };
  return Object.freeze({
    prisma: db.prisma,
    sql: db.sql,
    kind: db.kind,
    hasVector: db.hasVector,
    schema: db.schema,
    createdEmpty: db.createdEmpty,
    queryCount: () => db.queryCount(),
    observeStatements: (observer: StatementObserver) => db.observeStatements(observer),
    close,
  });
}
