/**
 * The database layer: open the database (PGlite or PostgreSQL, migrations applied) and
 * the migration tooling. Prisma types come from `./generated/client`.
 */
export { openDatabase, type Database, type DatabaseOptions } from './database';
export { embeddedTemplateFile } from './embedded-template';
export {
  checkMigrations,
  createMigration,
  deployMigrations,
  pendingMigrations,
  readMigrationList,
  type CreatedMigration,
  type MigrationCheck,
  type MigrationToolOptions,
} from './migrations';
export { PROJECT_PGLITE_TEMPLATE_DIR, PROJECT_PRISMA_PATHS, type PrismaPaths } from './project-paths';
export type { QueryCounter, StatementObserver } from './query-counting.adapter';
export type { RawSql, SqlParam } from './raw-sql';
