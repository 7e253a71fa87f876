import type { ErrorCode } from './error-codes';

/**
 * The `Retry-After` (seconds) of a 503 `unavailable` that does not name its own: long enough for a
 * dependency's blip to pass, short enough that a client is back soon after it recovers.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/** Extra data an error may expose to clients (for example rate-limit figures). */
export type ErrorDetails = Record<string, string | number | boolean | null>;

/**
 * The only error domain code throws. Its message is shown to clients, so it must
 * never carry secrets or internals.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = 'AppError';
  }

  /**
   * 500 for a server-side setting the request needs but that is unset: the
   * client is told only that `what` is not configured; the setting's name goes
   * in `cause`, for the server's log (an internal error is logged).
   */
  static notConfigured(what: string, setting: string): AppError {
    return Object.assign(new AppError('internal', `${what} not configured`), { cause: `${setting} is not set` });
  }

  static badRequest(field: string, problem: string): AppError {
    return new AppError('bad_request', `${field}: ${problem}`, { field });
  }
  static notFound(what: string): AppError {
    return new AppError('not_found', `${what} not found`);
  }
  static unauthorized(message = 'missing or invalid credential'): AppError {
    return new AppError('unauthorized', message);
  }
  static forbidden(message: string): AppError {
    return new AppError('forbidden', message);
  }
  static conflict(message: string): AppError {
    return new AppError('conflict', message);
  }
  /** 503: a dependency cannot serve the request now; `retryAfter` (seconds) becomes `Retry-After`. */
  static unavailable(message: string, retryAfterSeconds = UNAVAILABLE_RETRY_AFTER_SECONDS): AppError {
    return new AppError('unavailable', message, { retryAfter: retryAfterSeconds });
  }
  static upstream(message: string): AppError {
    return new AppError('upstream_error', message);
  }
  static rateLimited(retryAfterSeconds: number): AppError {
    return new AppError('rate_limited', `rate limit exceeded; retry in ${retryAfterSeconds}s`, {
      retryAfter: retryAfterSeconds,
    });
  }
}
