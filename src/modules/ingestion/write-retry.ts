import { sqlStateOf } from '../../errors/sql-state';

/** SQLSTATEs after which the whole statement or transaction may simply run again. */
const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);

/**
 * Whether a failure was a deadlock (40P01) or a serialization failure (40001):
 * PostgreSQL rolled the work back, so running it again is safe and usually
 * succeeds. Prisma reports these as P2034 on model queries and as P2010 (with
 * the SQLSTATE in the driver adapter's cause) on raw queries; statements run on
 * the adapter directly fail with its `DriverAdapterError` itself.
 */
export function isRetryableWriteConflict(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  if ((err as { code?: unknown }).code === 'P2034') return true;
  const state = sqlStateOf(err);
  return state !== undefined && RETRYABLE_SQLSTATES.has(state);
}

export interface WriteRetryOptions {
  /** Runs in all (default 4). */
  attempts?: number;
  /** Base of the jittered backoff between runs, ms (default 10). */
  backoffMs?: number;
  /** Told of each conflict that will be retried. */
  onRetry?: (err: unknown, attempt: number) => void;
}

/**
 * Runs `work` (one statement or one whole transaction), again after a deadlock
 * or serialization failure, with a short jittered backoff so the competitors
 * do not collide again in lockstep. Other errors, and the last conflict, are
 * thrown. A safety net: writers also take row locks in one canonical order so
 * that deadlocks do not happen in the first place.
 */
export async function withWriteRetry<T>(work: () => Promise<T>, o: WriteRetryOptions = {}): Promise<T> {
  const attempts = o.attempts ?? 4;
  const backoffMs = o.backoffMs ?? 10;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= attempts || !isRetryableWriteConflict(err)) throw err;
      o.onRetry?.(err, attempt);
      await new Promise((r) => setTimeout(r, backoffMs * attempt * (0.5 + Math.random())));
    }
  }
}
