/**
 * Locations inside the project, resolved from this file rather than the working
 * directory, so they hold under Jest, scripts and the server alike, from the sources
 * (src/db/) and from the production build (dist/src/db/).
 */
import { join } from 'node:path';
import { PROJECT_ROOT } from '../project-root';

/** Where the Prisma schema and the migrations folder are. */
export interface PrismaPaths {
  /** The `schema.prisma` file. */
  schemaFile: string;
  /** The migrations folder (`<timestamp>_<name>/migration.sql` and `migration_lock.toml`). */
  migrationsDir: string;
}

/** The project's `prisma/schema.prisma` and `prisma/migrations/`. */
export const PROJECT_PRISMA_PATHS: PrismaPaths = {
  schemaFile: join(PROJECT_ROOT, 'prisma', 'schema.prisma'),
  migrationsDir: join(PROJECT_ROOT, 'prisma', 'migrations'),
};

/** The PGlite template cache folder used by tests and the migrate script (a disposable cache). */
export const PROJECT_PGLITE_TEMPLATE_DIR = join(PROJECT_ROOT, 'node_modules', '.cache', 'pglite-template');
