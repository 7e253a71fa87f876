/**
 * Statements run straight on a driver adapter (PGlite or PostgreSQL, the same
 * adapter factory Prisma uses, counted like Prisma's statements), for the few
 * hot writes where Prisma's raw-query layer costs more than the statement:
 * it serializes every parameter to JSON and parses it back before the adapter
 * sees it, about 2 ms for a 1,000-trade delivery sent as one JSON parameter.
 * Everything else goes through Prisma. Each statement runs on its own (no
 * transaction of Prisma's): on PGlite, whose one connection a Prisma
 * transaction holds, never call it inside `prisma.$transaction(async (tx) => …)`.
 */
import {
  ColumnTypeEnum,
  type ArgType,
  type ColumnType,
  type SqlDriverAdapter,
  type SqlQuery,
  type Transaction,
} from '@prisma/driver-adapter-utils';
import { Prisma } from './generated/client';
import { openCommitHooks } from './commit-hooks';

/** A parameter value: text, a number, a boolean, null, or a text array. */
export type SqlParam = string | number | boolean | null | readonly string[];

/** Runs single statements on the database, outside Prisma. */
export interface RawSql {
  /**
   * Runs one statement with `$1`, `$2`, … placeholders and returns its rows,
   * keyed by column name, with the driver's values: `bigint` columns may come
   * back as text, a number or a bigint (convert them), arrays as arrays.
   * Errors are the driver adapter's (`DriverAdapterError`, SQLSTATE in
   * `cause.originalCode`).
   */
  query<T = Record<string, unknown>>(sql: string, params: readonly SqlParam[]): Promise<T[]>;
  /**
   * Runs `work` in one transaction straight on the driver adapter (BEGIN, its statements, COMMIT;
   * ROLLBACK when it throws), with a client that takes Prisma's raw statements (`$queryRaw`,
   * `$executeRaw`, tagged templates and `Prisma.sql` alike) and answers with the same values
   * Prisma would (bigint, Date, Decimal, parsed JSON). For the hottest write (a simulated order's
   * settlement): Prisma's interactive transaction and raw-query layers cost more than its five
   * statements (a quarter of the service's CPU per order). `afterCommit` hooks run once it
   * committed, as for Prisma's transactions. On PGlite it queues behind Prisma's transactions
   * like one of them (the adapter runs one at a time).
   */
  transaction<T>(work: (tx: SqlClient) => Promise<T>): Promise<T>;
  /**
   * Runs `work`'s ONE statement with no transaction around it (PostgreSQL runs a statement as a
   * transaction of its own: its writes, every CTE's, commit or roll back together), with a client
   * like {@link transaction}'s: `afterCommit` hooks run once the statement succeeded, never when it
   * failed. Two round trips fewer than BEGIN, the statement, COMMIT: for a write that fits in one
   * statement (a new simulated order, its position, ledger and notification).
   */
  statement<T>(work: (db: SqlClient) => Promise<T>): Promise<T>;
}

/**
 * What raw statements need of a database client: Prisma's client, one of its transaction clients,
 * or a {@link RawSql.transaction}'s.
 */
export type SqlClient = Pick<Prisma.TransactionClient, '$queryRaw' | '$executeRaw'>;

function argType(p: SqlParam): ArgType {
  if (Array.isArray(p)) return { scalarType: 'string', arity: 'list' };
  switch (typeof p) {
    case 'string':
      return { scalarType: 'string', arity: 'scalar' };
    case 'number':
      return { scalarType: Number.isInteger(p) ? 'int' : 'float', arity: 'scalar' };
    case 'boolean':
      return { scalarType: 'boolean', arity: 'scalar' };
    default:
      return { scalarType: 'unknown', arity: 'scalar' };
  }
}

/**
 * A raw statement's parameter as Prisma hands it to the adapter (its `serializeRawParameters`,
 * then the arguments' types): bigints and decimals as text, dates as ISO text, bytes as base64,
 * objects as JSON text, arrays element by element.
 */
function rawArg(v: unknown): { arg: unknown; scalarType: ArgType['scalarType'] } {
  if (typeof v === 'bigint') return { arg: v.toString(), scalarType: 'bigint' };
  if (v instanceof Date) return { arg: v.toISOString(), scalarType: 'datetime' };
  if (Prisma.Decimal.isDecimal(v)) return { arg: v.toString(), scalarType: 'decimal' };
  if (v instanceof Uint8Array) return { arg: Buffer.from(v).toString('base64'), scalarType: 'bytes' };
  if (typeof v === 'number') return { arg: v, scalarType: 'decimal' };
  if (typeof v === 'string') return { arg: v, scalarType: 'string' };
  if (v !== null && typeof v === 'object') return { arg: JSON.stringify(v), scalarType: 'unknown' };
  return { arg: v ?? null, scalarType: 'unknown' };
}

/** A statement as the adapter takes it, from a tagged template's parts or a `Prisma.sql`. */
function rawQuery(query: TemplateStringsArray | Prisma.Sql, values: unknown[]): SqlQuery {
  const sql = query instanceof Prisma.Sql ? query : Prisma.sql(query, ...values);
  const args: unknown[] = [];
  const argTypes: ArgType[] = [];
  for (const v of sql.values) {
    if (Array.isArray(v)) {
      const items = v.map(rawArg);
      args.push(items.map((i) => i.arg));
      argTypes.push({ scalarType: items[0]?.scalarType ?? 'unknown', arity: 'list' });
    } else {
      const { arg, scalarType } = rawArg(v);
      args.push(arg);
      argTypes.push({ scalarType, arity: 'scalar' });
    }
  }
  return { sql: sql.text, args, argTypes };
}

/** A column's value as Prisma's `$queryRaw` gives it, from what the adapter read. */
function rawValue(v: unknown, type: ColumnType): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case ColumnTypeEnum.Int32:
      return Math.trunc(Number(v));
    case ColumnTypeEnum.Int64:
      return typeof v === 'bigint' ? v : BigInt(typeof v === 'number' ? Math.trunc(v) : (v as string));
    case ColumnTypeEnum.Numeric:
      return new Prisma.Decimal(v as string);
    case ColumnTypeEnum.Boolean:
      return typeof v === 'boolean' ? v : v === 'true' || v === '1' || v === 1;
    case ColumnTypeEnum.Json:
      return typeof v === 'string' ? JSON.parse(v) : v;
    case ColumnTypeEnum.DateTime:
    case ColumnTypeEnum.Date:
      return new Date(v as string);
    case ColumnTypeEnum.Time:
      return new Date(`1970-01-01T${v as string}Z`);
    case ColumnTypeEnum.Bytes:
      return typeof v === 'string' ? new Uint8Array(Buffer.from(v, 'base64')) : v;
    case ColumnTypeEnum.Int64Array:
      return (v as unknown[]).map((x) => rawValue(x, ColumnTypeEnum.Int64));
    case ColumnTypeEnum.NumericArray:
      return (v as unknown[]).map((x) => rawValue(x, ColumnTypeEnum.Numeric));
    case ColumnTypeEnum.DateTimeArray:
      return (v as unknown[]).map((x) => rawValue(x, ColumnTypeEnum.DateTime));
    case ColumnTypeEnum.JsonArray:
      return (v as unknown[]).map((x) => rawValue(x, ColumnTypeEnum.Json));
    default:
      return v;
  }
}

/** A transaction's (or the adapter's own) client for raw statements (see {@link RawSql.transaction}). */
function sqlClientOf(tx: Pick<Transaction, 'queryRaw' | 'executeRaw'>): SqlClient {
  const client = {
    $queryRaw: async (query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => {
      const result = await tx.queryRaw(rawQuery(query, values));
      const { columnNames, columnTypes } = result;
      return result.rows.map((row) => {
        const out: Record<string, unknown> = {};
        for (let i = 0; i < columnNames.length; i += 1) out[columnNames[i]] = rawValue(row[i], columnTypes[i]);
        return out;
      });
    },
    $executeRaw: (query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) =>
      tx.executeRaw(rawQuery(query, values)),
  };
  // Prisma's own signatures return its PrismaPromise; a plain promise serves every caller here.
  return client as unknown as SqlClient;
}

const NO_ARGS = { args: [], argTypes: [] };

/** Ends `tx` as Prisma does: COMMIT or ROLLBACK sent, unless the adapter sends it itself (PGlite). */
async function endTransaction(tx: Transaction, how: 'COMMIT' | 'ROLLBACK'): Promise<void> {
  if (how === 'COMMIT') {
    if (!tx.options.usePhantomQuery) {
      try {
        await tx.executeRaw({ sql: 'COMMIT', ...NO_ARGS });
      } catch (err) {
        await tx.rollback().catch(() => undefined);
        throw err;
      }
    }
    await tx.commit();
    return;
  }
  try {
    if (!tx.options.usePhantomQuery) await tx.executeRaw({ sql: 'ROLLBACK', ...NO_ARGS });
  } finally {
    await tx.rollback();
  }
}

/**
 * Runs `work` with `queryable`'s client and its commit hooks, then `end` (COMMIT, or nothing for a
 * lone statement); the hooks run once both succeeded, and are dropped when either failed (`undo`,
 * a ROLLBACK, runs when `work` did).
 */
async function withCommitHooks<T>(
  queryable: Pick<Transaction, 'queryRaw' | 'executeRaw'>,
  work: (db: SqlClient) => Promise<T>,
  end: () => Promise<void>,
  undo: () => Promise<void>,
): Promise<T> {
  const client = sqlClientOf(queryable);
  const hooks = openCommitHooks(client);
  let result: T;
  try {
    result = await work(client);
  } catch (err) {
    hooks.drop();
    await undo().catch(() => undefined);
    throw err;
  }
  try {
    await end();
  } catch (err) {
    hooks.drop();
    throw err;
  }
  hooks.run();
  return result;
}

const nothing = () => Promise.resolve();

/** {@link RawSql} over a connected adapter (the caller disposes it). */
export function rawSqlOn(adapter: SqlDriverAdapter): RawSql {
  return {
    async transaction<T>(work: (tx: SqlClient) => Promise<T>): Promise<T> {
      const tx = await adapter.startTransaction();
      return withCommitHooks(
        tx,
        work,
        () => endTransaction(tx, 'COMMIT'),
        () => endTransaction(tx, 'ROLLBACK'),
      );
    },
    statement: (work) => withCommitHooks(adapter, work, nothing, nothing),
    async query<T>(sql: string, params: readonly SqlParam[]): Promise<T[]> {
      const result = await adapter.queryRaw({ sql, args: [...params], argTypes: params.map(argType) });
      const { columnNames } = result;
      return result.rows.map((row) => {
        const out: Record<string, unknown> = {};
        for (let i = 0; i < columnNames.length; i += 1) out[columnNames[i]] = row[i];
        return out as T;
      });
    },
  };
}
