/**
 * Driver adapter factory for PostgreSQL, built on `@prisma/adapter-pg` over a `pg.Pool`
 * that this project creates (so that every connection gets the schema as search path).
 */
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { quoteSchemaName, toDriverAdapterError } from './adapter.util';

/** Options of {@link createPostgresPool}. */
export interface PostgresPoolOptions {
  /** PostgreSQL URL; a Prisma-style `?schema=` parameter is honoured (and removed). */
  databaseUrl: string;
  /** Schema to use; overrides the URL's `schema` parameter; `public` when neither is set. */
  schema?: string;
  /** Maximum number of connections. */
  poolSize: number;
  /**
   * How long getting a connection may take (ms): connecting, or waiting for one of the pool's. Past
   * it the statement fails ("timeout exceeded when trying to connect": a 503) instead of waiting for
   * a server that does not answer. Unset: no bound.
   */
  connectTimeoutMs?: number;
  /**
   * PostgreSQL's `statement_timeout` for every connection (ms): a statement that runs longer (or
   * waits longer on a lock) is cancelled by the database (SQLSTATE 57014: a 503). Unset or 0: none.
   */
  statementTimeoutMs?: number;
}

/** A pool whose connections use `schema` as search path. */
export interface PostgresPool {
  readonly pool: pg.Pool;
  readonly schema: string;
}

/**
 * The search path for a schema: the schema, then `public`, where extensions live (their
 * types must resolve, e.g. pgvector's `vector`). Unqualified names are created in the
 * schema, and the schema engine looks for `_prisma_migrations` in it only.
 */
export function searchPath(schema: string): string {
  const quoted = quoteSchemaName(schema);
  return schema === 'public' ? quoted : `${quoted},public`;
}

/**
 * Creates a `pg.Pool` whose connections all use the schema as `search_path` (unqualified
 * names in migration scripts then land in it). Does not connect yet.
 */
export function createPostgresPool(options: PostgresPoolOptions): PostgresPool {
  const url = new URL(options.databaseUrl);
  const urlSchema = url.searchParams.get('schema') ?? undefined;
  url.searchParams.delete('schema');
  const schema = options.schema ?? urlSchema ?? 'public';
  const pool = new pg.Pool({
    connectionString: url.toString(),
    max: options.poolSize,
    ...(options.connectTimeoutMs !== undefined && { connectionTimeoutMillis: options.connectTimeoutMs }),
    options:
      `-c search_path=${searchPath(schema)}` +
      (options.statementTimeoutMs ? ` -c statement_timeout=${Math.round(options.statementTimeoutMs)}` : ''),
  });
  // An idle client's error (e.g. server restart) must not crash the process; the next
  // query on it fails and the pool replaces it.
  pool.on('error', () => undefined);
  return { pool, schema };
}

/**
 * Creates the schema when it does not exist (checked first: `CREATE SCHEMA IF NOT EXISTS`
 * needs the CREATE privilege even when the schema exists).
 */
export async function ensurePostgresSchema(pool: pg.Pool, schema: string): Promise<void> {
  const found = await pool.query('select 1 from pg_namespace where nspname = $1', [schema]);
  if (found.rowCount === 0) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${quoteSchemaName(schema)}`);
}

/**
 * Makes pgvector available when the server has it: returns whether the `vector`
 * extension is installed afterwards (false on a server without pgvector, or when this
 * role may not create it). It is created in `public`, never in a (test) schema whose
 * `DROP SCHEMA … CASCADE` would drop it with every vector column of the database.
 */
export async function ensurePostgresVector(pool: pg.Pool): Promise<boolean> {
  const installed = async () =>
    ((await pool.query(`select 1 from pg_extension where extname = 'vector'`)).rowCount ?? 0) > 0;
  if (await installed()) return true;
  const available = await pool.query(`select 1 from pg_available_extensions where name = 'vector'`);
  if (available.rowCount === 0) return false;
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public');
  } catch {
    return false;
  }
  return installed();
}

/**
 * Wraps a `@prisma/adapter-pg` adapter so that `executeScript` sends the whole script in
 * one simple query on one connection (one implicit transaction, as the native engine
 * does). The original splits it on every `;` (breaking `DO $$ … $$` blocks and
 * strings) and may run the pieces on different pooled connections.
 */
function patchAdapter(inner: SqlDriverAdapter, pool: pg.Pool): SqlDriverAdapter {
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw: (query) => inner.queryRaw(query),
    executeRaw: (query) => inner.executeRaw(query),
    startTransaction: (isolationLevel) => inner.startTransaction(isolationLevel),
    executeScript: async (script) => {
      try {
        await pool.query(script);
      } catch (error) {
        throw toDriverAdapterError(error);
      }
    },
    getConnectionInfo: () => inner.getConnectionInfo?.() ?? { supportsRelationJoins: true },
    dispose: () => inner.dispose(),
  };
}

/**
 * Names for the statements sent through the adapter, so that each connection prepares a statement
 * once: `pg` then sends only Bind/Execute for a text it prepared on that connection, and
 * PostgreSQL parses and plans it once per connection instead of every time (parsing and planning
 * were half of PostgreSQL's CPU on a stored order). The first `max` distinct texts get a name; any
 * other goes unnamed (parsed each time), so texts that vary without end (a VALUES list per row
 * count) cannot grow the connections' statements without bound. The name is the text's number in
 * this process: one text, one name, never reused for another text.
 */
export function statementNames(max: number): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    const known = names.get(sql);
    if (known !== undefined) return known;
    if (names.size >= max) return ''; // pg: an empty name is the unnamed statement
    const name = `s${names.size + 1}`;
    names.set(sql, name);
    return name;
  };
}

/**
 * Prisma driver adapter factory over an externally owned pool (never ended by the
 * adapters: the caller ends it). Shadow databases (`CREATE DATABASE`, for migration
 * development only) come from `@prisma/adapter-pg` as they are.
 */
export class PostgresAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName: string;
  private readonly inner: PrismaPg;

  /** @param preparedStatements see {@link statementNames} (0: every statement unnamed, parsed each time). */
  constructor(
    private readonly target: PostgresPool,
    preparedStatements = 0,
  ) {
    this.inner = new PrismaPg(target.pool, {
      schema: target.schema,
      ...(preparedStatements > 0 && { statementNameGenerator: statementNames(preparedStatements) }),
    });
    this.adapterName = this.inner.adapterName;
  }

  /** Connects through the pool. */
  async connect(): Promise<SqlDriverAdapter> {
    return patchAdapter(await this.inner.connect(), this.target.pool);
  }

  /**
   * Creates a temporary database (dropped on dispose) with `@prisma/adapter-pg`; the
   * schema of the search path does not exist there, so objects land in `public`.
   * Note: the engine's introspection (diff, createMigration) fails through
   * `@prisma/adapter-pg` 7.10.1 ("Column type 'char' could not be deserialized"), so the
   * project's migration tooling runs those on PGlite; PostgreSQL only gets deploys.
   */
  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    const shadow = await this.inner.connectToShadowDb();
    return patchAdapter(shadow, shadow.underlyingDriver());
  }
}
