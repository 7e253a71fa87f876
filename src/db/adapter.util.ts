/**
 * Helpers shared by the PGlite and PostgreSQL adapter wrappers.
 */
import { DriverAdapterError } from '@prisma/driver-adapter-utils';

/** The fields PostgreSQL error objects (from `pg` and PGlite) carry. */
interface PostgresErrorFields {
  code: string;
  severity: string;
  message: string;
  detail?: string;
  column?: string;
  hint?: string;
}

function isPostgresError(error: unknown): error is PostgresErrorFields {
  const e = error as Partial<PostgresErrorFields> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.code === 'string' &&
    typeof e.severity === 'string' &&
    typeof e.message === 'string'
  );
}

/**
 * Converts a PostgreSQL error into the `DriverAdapterError` Prisma's engines understand
 * (kind `postgres`, whose message they show); other errors are returned unchanged.
 */
export function toDriverAdapterError(error: unknown): unknown {
  if (!isPostgresError(error)) return error;
  return new DriverAdapterError({
    kind: 'postgres',
    code: error.code,
    severity: error.severity,
    message: error.message,
    detail: error.detail,
    column: error.column,
    hint: error.hint,
    originalCode: error.code,
    originalMessage: error.message,
  });
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Validates a PostgreSQL schema name (lower-case identifier: letters, digits, `_`) and
 * returns it double-quoted for SQL.
 */
export function quoteSchemaName(schema: string): string {
  if (!IDENTIFIER.test(schema)) {
    throw new Error(`Invalid schema name ${JSON.stringify(schema)}: use lower-case letters, digits and _`);
  }
  return `"${schema}"`;
}
