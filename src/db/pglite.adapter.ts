/**
 * Driver adapter factory for embedded PGlite, built on `pglite-prisma-adapter` 0.7.2
 * with fixes for its known bugs:
 *
 * - `executeScript` does not await the SQL, so a failing migration script was recorded
 *   as applied: here it awaits and maps the error.
 * - `connectToShadowDb` creates a PGlite without the extensions and never closes it:
 *   here the shadow database is an in-memory PGlite with the same extensions, closed
 *   when the engine disposes it.
 * - The schema name was not reported in `getConnectionInfo`: here it is, so that the
 *   client and the schema engine qualify their SQL with it.
 *
 * PGlite has ONE connection. An interactive `$transaction` holds it until the callback
 * ends: code inside `$transaction(async (tx) => …)` must use `tx` only; a query through
 * the outer client waits for the transaction, which waits for it — a deadlock.
 */
import type { Extensions, PGlite } from '@electric-sql/pglite';
import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  SqlQueryable,
} from '@prisma/driver-adapter-utils';
import { quoteSchemaName, toDriverAdapterError } from './adapter.util';
import { nativeRequire } from './native-require.util';
import { createExtensions, createPGliteFromTemplate, loadPGlite, pgliteStartParams } from './pglite-template.cache';

// Loaded with Node's own loader (see native-require.util.ts), as PGlite is.
const { PrismaPGlite } = nativeRequire<typeof import('pglite-prisma-adapter')>('pglite-prisma-adapter');
type PrismaPGlite = InstanceType<typeof PrismaPGlite>;
const { vector } = nativeRequire<typeof import('@electric-sql/pglite/vector')>('@electric-sql/pglite/vector');

/** Extensions loaded (and created) in every PGlite this project opens. */
export const PGLITE_EXTENSIONS = { vector } satisfies Extensions;

/** Options of {@link createPGlite}. */
export interface CreatePGliteOptions {
  /** Data folder (its parent must exist); undefined = in memory. */
  dataDir?: string;
  /** Schema to create if missing and use as search path; `public` when unset. */
  schema?: string;
  /** Template cache folder for in-memory PGlites (see pglite-template.cache.ts). */
  templateDir?: string;
}

/**
 * Creates a PGlite with {@link PGLITE_EXTENSIONS} loaded and created
 * (`CREATE EXTENSION IF NOT EXISTS`), in `options.schema` when set.
 */
export async function createPGlite(options: CreatePGliteOptions = {}): Promise<PGlite> {
  const { dataDir, schema, templateDir } = options;
  const db =
    dataDir === undefined && templateDir !== undefined
      ? await createPGliteFromTemplate(templateDir, PGLITE_EXTENSIONS)
      : await loadPGlite().create({
          dataDir,
          extensions: PGLITE_EXTENSIONS,
          startParams: pgliteStartParams(),
        });
  try {
    await createExtensions(db, PGLITE_EXTENSIONS);
    if (schema !== undefined && schema !== 'public') {
      // As on PostgreSQL (see searchPath): the schema, then public for the extensions.
      const quoted = quoteSchemaName(schema);
      await db.exec(`CREATE SCHEMA IF NOT EXISTS ${quoted}; SET search_path TO ${quoted}, public;`);
    }
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** True for a Date of any realm (`instanceof Date` fails across realms). */
function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]';
}

function toRealmFreeArg(value: unknown): unknown {
  if (isDate(value)) return value.toISOString();
  if (Array.isArray(value)) return value.map(toRealmFreeArg);
  return value;
}

/**
 * Turns Date arguments into ISO strings. PGlite lives outside the Jest sandbox (see
 * native-require.util.ts) and recognises dates with `instanceof Date`, which is false
 * for the sandbox's dates; the adapter turns datetime strings back into dates.
 */
function realmFreeQuery(query: SqlQuery): SqlQuery {
  return query.args.some((arg) => isDate(arg) || Array.isArray(arg))
    ? { ...query, args: query.args.map(toRealmFreeArg) }
    : query;
}

function wrapQueryable<T extends SqlQueryable>(inner: T): Pick<T, 'queryRaw' | 'executeRaw'> {
  return {
    queryRaw: (query) => inner.queryRaw(realmFreeQuery(query)),
    executeRaw: (query) => inner.executeRaw(realmFreeQuery(query)),
  };
}

/**
 * Wraps an adapter from `pglite-prisma-adapter` with an awaiting `executeScript`,
 * the schema name in its connection info, and an extra clean-up on dispose.
 */
function patchAdapter(
  inner: SqlDriverAdapter,
  client: PGlite,
  schema: string | undefined,
  onDispose?: () => Promise<void>,
): SqlDriverAdapter {
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    ...wrapQueryable(inner),
    startTransaction: async (isolationLevel) => {
      const tx = await inner.startTransaction(isolationLevel);
      return {
        provider: tx.provider,
        adapterName: tx.adapterName,
        options: tx.options,
        ...wrapQueryable(tx),
        commit: () => tx.commit(),
        rollback: () => tx.rollback(),
      };
    },
    executeScript: async (script) => {
      try {
        await client.exec(script);
      } catch (error) {
        throw toDriverAdapterError(error);
      }
    },
    getConnectionInfo: () => ({ schemaName: schema, supportsRelationJoins: true }),
    dispose: async () => {
      await inner.dispose();
      await onDispose?.();
    },
  };
}

/**
 * Prisma driver adapter factory over one PGlite instance (which the caller owns and
 * closes). Shadow databases are fresh in-memory PGlites, closed on dispose.
 */
export class PGliteAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName: string;
  private readonly inner: PrismaPGlite;

  /**
   * @param client the PGlite to connect to
   * @param options.schema the schema it uses (its search path); `public` when unset
   * @param options.templateDir template cache folder for the shadow databases
   */
  constructor(
    private readonly client: PGlite,
    private readonly options: { schema?: string; templateDir?: string } = {},
  ) {
    this.inner = new PrismaPGlite(client);
    this.adapterName = this.inner.adapterName;
  }

  /** Connects to the PGlite given to the constructor. */
  async connect(): Promise<SqlDriverAdapter> {
    return patchAdapter(await this.inner.connect(), this.client, this.options.schema);
  }

  /** Opens a throw-away in-memory PGlite (with the extensions), closed on dispose. */
  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    const shadow = await createPGlite({ templateDir: this.options.templateDir });
    try {
      const adapter = await new PrismaPGlite(shadow).connect();
      return patchAdapter(adapter, shadow, undefined, () => shadow.close());
    } catch (error) {
      await shadow.close();
      throw error;
    }
  }
}
