import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { AppConfig } from './config';
import { createPostgresPool } from './db/postgres.adapter';
import type { Logger } from './http/logger';

/*
 * Preparing a new database (migrating it and seeding the simulated world) in a child process, before
 * the process opens it for itself. What that work builds (the schema engine, the catalog sync's and
 * the trade backfill's objects, the embedded database's grown WebAssembly heap) is the child's and
 * goes back to the system when it exits, instead of staying resident in a server that seeded once.
 * (A worker thread was measured too: about 135 MB of what it had used stayed with the process.)
 */

/** What the child reports when it is done. */
export interface PreparedDatabase {
  /** The database was created from nothing by the child (no earlier folder, schema or archive). */
  createdEmpty: boolean;
}

/**
 * The server's flag that keeps WebAssembly on V8's baseline compiler (`npm start`): resident memory
 * for a long-running process. The child runs the embedded database's seeding, hot code that
 * lives for seconds and whose memory goes back when it exits: it gets the optimizing tier.
 */
const WASM_BASELINE_ONLY = '--liftoff-only';

/** The child's entry point, beside this file (`.js` in the build, `.ts` from the sources). */
const CHILD_FILE = join(__dirname, `prepare-database.child${extname(__filename)}`);

/**
 * Whether the database the process opens is to be migrated and seeded first (and so is worth a
 * child process): the process migrates and seeds at start, every venue is simulated (a live venue's catalog
 * comes from the catalog job), and the database holds no catalog yet. Embedded: a data folder that
 * does not exist and no ready database (`template`) to start it from. PostgreSQL: a schema without
 * the catalog table, or with an empty one.
 */
export async function needsPreparing(config: AppConfig, template: string | undefined): Promise<boolean> {
  const simulated = Object.values(config.venues.source).every((s) => s === 'sim');
  if (!config.roles.migrateOnStart || !config.roles.seedOnStart || !simulated) return false;
  if (config.databaseUrl === undefined) {
    return !existsSync(join(config.dataDir, 'PG_VERSION')) && !(template !== undefined && existsSync(template));
  }
  const { pool } = createPostgresPool({ databaseUrl: config.databaseUrl, poolSize: 1 });
  try {
    const { rows } = await pool.query<{ seeded: boolean }>('SELECT EXISTS (SELECT 1 FROM "CoreEvent") AS seeded');
    return rows[0]?.seeded !== true;
  } catch {
    return true; // no catalog table: a schema not migrated yet
  } finally {
    await pool.end().catch(() => undefined);
  }
}

/**
 * Migrates and seeds the configured database in a child process (with the settings it reads from
 * `env`, this process's environment unless given), and resolves when the child has closed it and exited.
 */
export function prepareInChild(logger: Logger, env: NodeJS.ProcessEnv = process.env): Promise<PreparedDatabase> {
  // From the sources (`.ts`), the child compiles them as this process does (the -r register hook).
  const execArgv = CHILD_FILE.endsWith('.ts')
    ? ['-r', join(__dirname, '..', 'scripts', 'register.js')]
    : process.execArgv.filter((a) => a !== WASM_BASELINE_ONLY);
  return new Promise((resolve, reject) => {
    const child = fork(CHILD_FILE, [], { execArgv, env, stdio: 'inherit' });
    let result: PreparedDatabase | undefined;
    child.on('message', (message: PreparedDatabase) => {
      result = message;
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (result && code === 0) {
        logger.debug({ createdEmpty: result.createdEmpty }, 'prepared the database in a child process');
        resolve(result);
      } else reject(new Error(`preparing the database failed (child exit ${signal ?? code})`));
    });
  });
}
