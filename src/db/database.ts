/**
 * Opens the application database: PostgreSQL (through `pg`) when a URL is given, else
 * embedded PGlite (in memory, or persisted in a folder). Pending migrations are applied
 * first, through the wasm schema engine.
 *
 * PGlite has ONE connection: inside `prisma.$transaction(async (tx) => …)` use only `tx`.
 * A query on the outer `prisma` there waits for the transaction to end, which waits for
 * the callback: a deadlock. (Keep to that rule on PostgreSQL too, where the outer client
 * would run outside the transaction.)
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type pg from 'pg';
import { PrismaClient } from './generated/client';
import { deployMigrations } from './migrations';
import { createPGlite, PGliteAdapterFactory } from './pglite.adapter';
import { extractDataDirArchive, writeDataDirArchive } from './pglite-template.cache';
import {
  createPostgresPool,
  ensurePostgresSchema,
  ensurePostgresVector,
  PostgresAdapterFactory,
} from './postgres.adapter';
import { PROJECT_PRISMA_PATHS, type PrismaPaths } from './project-paths';
import { withQueryCounting, type QueryCounter, type StatementObserver } from './query-counting.adapter';
import { withCommitHooks } from './commit-hooks';
import { rawSqlOn, type RawSql } from './raw-sql';
import { DEFAULT_PREPARED_STATEMENTS } from './database.settings';

/** How to open the database. */
export interface DatabaseOptions {
  /** PostgreSQL URL; when unset, embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite data folder (created with parents if missing); undefined = in-memory PGlite. */
  dataDir?: string;
  /** PostgreSQL schema to use (created if missing) — tests use a fresh one per test file. */
  schema?: string;
  /** pg pool size (default 10). */
  poolSize?: number;
  /** PostgreSQL: how long getting a connection may take (ms) before the statement fails; unset: no bound. */
  connectTimeoutMs?: number;
  /** PostgreSQL: `statement_timeout` of every connection (ms); unset or 0: none. */
  statementTimeoutMs?: number;
  /**
   * PostgreSQL: how many distinct statement texts are prepared once per connection (see
   * `statementNames`); 0: none. Default {@link DEFAULT_PREPARED_STATEMENTS}.
   */
  preparedStatements?: number;
  /** Whether to apply pending migrations at open (default true; false: the schema is someone else's job). */
  migrate?: boolean;
  /** Called with the names of the migrations applied at open (empty when up to date). */
  onMigrationsApplied?: (names: string[]) => void;
  /** Where schema.prisma and the migrations are; the project's `prisma/` by default. */
  prismaPaths?: PrismaPaths;
  /**
   * Template cache folder for in-memory PGlite (~0.5 s to open instead of 1.5–2 s): a
   * freshly initialised cluster is saved there once and loaded afterwards. Tests pass
   * `PROJECT_PGLITE_TEMPLATE_DIR`; unset = no cache.
   */
  pgliteTemplateDir?: string;
  /**
   * PGlite with a `dataDir` that holds no database yet: start it from this archive
   * (a data folder saved by {@link Database.archiveTo}) when the file exists,
   * instead of creating the cluster and migrating from nothing.
   */
  startFrom?: string;
}

/** An open database: the Prisma client and what goes with it. */
export interface Database {
  readonly prisma: PrismaClient;
  /** Single statements outside Prisma, on the same database and counter (hot writes only; see raw-sql.ts). */
  readonly sql: RawSql;
  readonly kind: 'pglite' | 'postgres';
  /** Number of SQL statements executed through Prisma or `sql` since open (for metrics and N+1 tests). */
  queryCount(): number;
  /**
   * Tells `observer` how each statement through Prisma or `sql` ends, from now on (one observer:
   * a later call replaces it). The process judges the database's reachability from it.
   */
  observeStatements(observer: StatementObserver): void;
  /**
   * Whether the pgvector extension is available (always true on PGlite when loaded, false on plain PostgreSQL
   * without it).
   */
  readonly hasVector: boolean;
  /** The schema in use (`public` unless set). */
  readonly schema: string;
  /** True when this open created the database from nothing (no earlier folder, schema or archive). */
  readonly createdEmpty: boolean;
  /**
   * PGlite: saves the whole data folder as an archive that {@link DatabaseOptions.startFrom}
   * starts a new folder from (written under a temporary name, then renamed). Undefined on PostgreSQL.
   */
  archiveTo?: (file: string) => Promise<void>;
  /** Disconnects Prisma and closes the pool / PGlite. Safe to call twice. */
  close(): Promise<void>;
}

const DEFAULT_POOL_SIZE = 10;

/** A connected back end, before Prisma is on it. */
interface Backend {
  kind: Database['kind'];
  schema: string;
  factory: SqlDriverAdapterFactory;
  hasVector: boolean;
  /** Applies the pending migrations; returns their names. */
  migrate(paths: PrismaPaths): Promise<string[]>;
  shutdown(): Promise<void>;
  /** Whether the back end holds a database made by this open (PGlite: a new data folder, not an archive). */
  createdEmpty: boolean;
  archiveTo?: (file: string) => Promise<void>;
}

async function openPostgres(opts: DatabaseOptions & { databaseUrl: string }): Promise<Backend> {
  const target = createPostgresPool({
    databaseUrl: opts.databaseUrl,
    schema: opts.schema,
    poolSize: opts.poolSize ?? DEFAULT_POOL_SIZE,
    connectTimeoutMs: opts.connectTimeoutMs,
    statementTimeoutMs: opts.statementTimeoutMs,
  });
  const { pool } = target;
  try {
    await ensurePostgresSchema(pool, target.schema);
    const hasVector = await ensurePostgresVector(pool);
    return {
      kind: 'postgres',
      schema: target.schema,
      factory: new PostgresAdapterFactory(target, opts.preparedStatements ?? DEFAULT_PREPARED_STATEMENTS),
      hasVector,
      migrate: (paths) => migratePostgres(opts.databaseUrl, target.schema, paths),
      shutdown: () => pool.end(),
      createdEmpty: false,
    };
  } catch (error) {
    await endQuietly(pool);
    throw error;
  }
}

/**
 * Migrates through a pool of ONE connection, ended afterwards. The engine takes the
 * session-level `pg_advisory_lock(72707369)` (serialising concurrent deploys across the
 * database) and never unlocks it, counting on its connection closing; on a shared pool
 * the lock would stay held by an idle connection and stall every other deploy.
 */
async function migratePostgres(databaseUrl: string, schema: string, paths: PrismaPaths): Promise<string[]> {
  const target = createPostgresPool({ databaseUrl, schema, poolSize: 1 });
  try {
    return await deployMigrations(new PostgresAdapterFactory(target), paths);
  } finally {
    await endQuietly(target.pool);
  }
}

async function openPGlite(opts: DatabaseOptions): Promise<Backend> {
  let dataDir: string | undefined;
  if (opts.dataDir !== undefined) {
    // PGlite creates only the last segment of its data folder.
    dataDir = resolve(opts.dataDir);
    mkdirSync(dirname(dataDir), { recursive: true });
  }
  const schema = opts.schema ?? 'public';
  const templateDir = opts.pgliteTemplateDir;
  const isNew = dataDir === undefined || !existsSync(join(dataDir, 'PG_VERSION'));
  // A new folder starts as a copy of the ready database when there is one; otherwise
  // (none yet, or unreadable) PGlite creates it from nothing.
  const fromArchive =
    isNew && dataDir !== undefined && opts.startFrom !== undefined && extractDataDirArchive(opts.startFrom, dataDir);
  const client: PGlite = await createPGlite({ dataDir, schema, templateDir });
  const factory = new PGliteAdapterFactory(client, { schema, templateDir });
  return {
    kind: 'pglite',
    schema,
    factory,
    hasVector: true,
    // One connection, which the engine's advisory lock is re-entrant on.
    migrate: (paths) => deployMigrations(factory, paths),
    shutdown: () => client.close(),
    createdEmpty: isNew && !fromArchive,
    archiveTo: (file) => writeDataDirArchive(client, file),
  };
}

async function endQuietly(pool: pg.Pool): Promise<void> {
  try {
    await pool.end();
  } catch {
    // already ended or broken: nothing left to release
  }
}

/**
 * Opens the database and applies pending migrations. PostgreSQL when
 * `opts.databaseUrl` is set (in `opts.schema`, created if missing), else PGlite
 * (`opts.dataDir`, or in memory). A persisted PGlite folder must be used by one
 * process at a time.
 */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  const backend = opts.databaseUrl
    ? await openPostgres({ ...opts, databaseUrl: opts.databaseUrl })
    : await openPGlite(opts);
  let prisma: PrismaClient | undefined;
  let raw: SqlDriverAdapter | undefined;
  try {
    if (opts.migrate !== false) {
      const applied = await backend.migrate(opts.prismaPaths ?? PROJECT_PRISMA_PATHS);
      opts.onMigrationsApplied?.(applied);
    }
    const counter: QueryCounter = { count: 0 };
    const counted = withQueryCounting(backend.factory, counter);
    prisma = new PrismaClient({
      adapter: counted,
      // PGlite serves one transaction at a time, so a transaction may queue behind
      // another (the catalog's batch upsert takes seconds on a busy machine): wait
      // longer than Prisma's 2 s / 5 s defaults before giving up.
      transactionOptions: { maxWait: 15_000, timeout: 30_000 },
    });
    // Interactive transactions run the hooks added with `afterCommit` once they commit (commit-hooks.ts).
    withCommitHooks(prisma);
    await prisma.$connect();
    raw = await counted.connect();
    return createDatabase(backend, prisma, raw, counter);
  } catch (error) {
    await raw?.dispose().catch(() => undefined);
    await prisma?.$disconnect().catch(() => undefined);
    await backend.shutdown().catch(() => undefined);
    throw error;
  }
}

function createDatabase(
  backend: Backend,
  prisma: PrismaClient,
  raw: SqlDriverAdapter,
  counter: QueryCounter,
): Database {
  let closing: Promise<void> | undefined;
  return {
    prisma,
    sql: rawSqlOn(raw),
    kind: backend.kind,
    hasVector: backend.hasVector,
    schema: backend.schema,
    createdEmpty: backend.createdEmpty,
    ...(backend.archiveTo && { archiveTo: backend.archiveTo }),
    queryCount: () => counter.count,
    observeStatements: (observer) => {
      counter.observer = observer;
    },
    close: () => {
      closing ??= (async () => {
        try {
          await raw.dispose().catch(() => undefined);
          await prisma.$disconnect();
        } finally {
          await backend.shutdown();
        }
      })();
      return closing;
    },
  };
}
