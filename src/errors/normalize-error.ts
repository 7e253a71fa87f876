import { AppError, UNAVAILABLE_RETRY_AFTER_SECONDS } from './app-error';
import { isDatabaseUnreachable } from './database-unreachable';
import { sqlStateOf } from './sql-state';

interface PrismaKnownError {
  code: string;
  meta?: Record<string, unknown>;
}

function isPrismaKnownError(err: unknown): err is PrismaKnownError {
  return (
    typeof err === 'object' &&
    err !== null &&
    (err as { name?: unknown }).name === 'PrismaClientKnownRequestError' &&
    typeof (err as { code?: unknown }).code === 'string'
  );
}

/**
 * PostgreSQL's text for a foreign-key violation (23503), as the driver adapter
 * passes it on in `meta.driverAdapterError.cause.originalMessage`.
 */
function foreignKeyMessage(meta: Record<string, unknown> | undefined): string {
  const cause = (meta?.driverAdapterError as { cause?: { originalMessage?: unknown } } | undefined)?.cause;
  return typeof cause?.originalMessage === 'string' ? cause.originalMessage : '';
}

/**
 * A foreign-key violation (P2003). Writing a row that refers to one that is
 * gone (a like or a reply racing the comment's deletion: "insert or update on
 * table … violates") is a 404: what it refers to does not exist. Removing a
 * row others still refer to ("update or delete on table … violates") is a 409.
 */
function foreignKeyError(err: PrismaKnownError): AppError {
  return /^update or delete on table/i.test(foreignKeyMessage(err.meta))
    ? AppError.conflict('the resource is still referenced')
    : AppError.notFound('a referenced resource');
}

/**
 * Turns anything thrown into an AppError, translating Prisma errors in this one
 * place. Returns null for unexpected errors, which callers mask as `internal`.
 * A database that cannot be reached (database-unreachable.ts), or Redis
 * where a caller has no fallback for it (`RedisUnavailableError`, matched by
 * name: the errors do not depend on the infra), is a 503 `unavailable` with
 * `Retry-After`, not an internal error.
 */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  if (isDatabaseUnreachable(err)) {
    return AppError.unavailable(`database unavailable; retry in ${UNAVAILABLE_RETRY_AFTER_SECONDS}s`);
  }
  // Cancelled by the database's statement_timeout (57014): the database did not answer in time, a
  // 503 to retry, but not an outage (one slow statement, a lock held elsewhere).
  if (sqlStateOf(err) === '57014' || (err as { code?: unknown } | null)?.code === '57014') {
    return AppError.unavailable(
      `the database did not answer in time (statement timeout); retry in ${UNAVAILABLE_RETRY_AFTER_SECONDS}s`,
    );
  }
  // Redis unreachable where a caller needs it and has no fallback (a revocation mark to write).
  if (err instanceof Error && err.name === 'RedisUnavailableError') {
    return AppError.unavailable(`shared state unavailable; retry in ${UNAVAILABLE_RETRY_AFTER_SECONDS}s`);
  }
  if (isPrismaKnownError(err)) {
    switch (err.code) {
      case 'P2002':
        return AppError.conflict('resource already exists');
      case 'P2003':
        return foreignKeyError(err);
      case 'P2025':
      case 'P2001':
        return AppError.notFound('resource');
      case 'P2010': {
        // A raw statement's failure: the same violations as the model queries' codes above.
        const state = sqlStateOf(err);
        if (state === '23505') return AppError.conflict('resource already exists');
        if (state === '23503') return foreignKeyError(err);
        return null;
      }
      default:
        return null;
    }
  }
  return null;
}
