import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { readMigrationList } from './migrations';
import { pgliteVersion } from './pglite-template.cache';
import { PROJECT_PRISMA_PATHS, type PrismaPaths } from './project-paths';

/** Bumped when what a template holds changes meaning. */
const FORMAT = 1;

/**
 * The file of the embedded mode's ready database for these settings: a data
 * folder archive, migrated and seeded, that a new DATA_DIR starts from (a
 * second or later first start skips creating the cluster, migrating and
 * seeding). It is keyed by everything its contents depend on: the PGlite
 * version, the migrations (names and scripts), the world's settings and the UTC
 * day (a simulated world is anchored at its first start, so a template is at
 * most a day older than a world created from nothing).
 */
export function embeddedTemplateFile(
  dir: string,
  world: Readonly<Record<string, string | number | boolean>>,
  now: Date = new Date(),
  paths: PrismaPaths = PROJECT_PRISMA_PATHS,
): string {
  const migrations = readMigrationList(paths.migrationsDir).migrationDirectories.map((d) => [
    d.path,
    d.migrationFile.content.tag === 'ok' ? d.migrationFile.content.value : '',
  ]);
  const key = JSON.stringify({
    FORMAT,
    pglite: pgliteVersion(),
    migrations,
    world,
    day: now.toISOString().slice(0, 10),
  });
  return join(dir, `embedded-${createHash('sha256').update(key).digest('hex').slice(0, 20)}.tar`);
}
