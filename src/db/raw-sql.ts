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
import type { ArgType, SqlDriverAdapter } from '@prisma/driver-adapter-utils';

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
}

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

/** {@link RawSql} over a connected adapter (the caller disposes it). */
export function rawSqlOn(adapter: SqlDriverAdapter): RawSql {
  return {
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
