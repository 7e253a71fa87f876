import type { ServerResponse } from 'node:http';
import { UNAVAILABLE_RETRY_AFTER_SECONDS, type ErrorDetails } from '../errors/app-error';
import { statusForCode, type ErrorCode } from '../errors/error-codes';

/**
 * Writes the error body of both surfaces: `{ error, message }` with the table's status. A 429
 * `rate_limited` and every 503 `unavailable` carry `Retry-After` (seconds): the error's own
 * `retryAfter`, or for a 503 without one {@link UNAVAILABLE_RETRY_AFTER_SECONDS}.
 */
export function sendError(res: ServerResponse, code: ErrorCode, message: string, details?: ErrorDetails): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const status = statusForCode(code);
  const retryAfter = details?.retryAfter;
  if (code === 'rate_limited' && typeof retryAfter === 'number') res.setHeader('retry-after', String(retryAfter));
  if (code === 'unavailable') {
    res.setHeader('retry-after', String(typeof retryAfter === 'number' ? retryAfter : UNAVAILABLE_RETRY_AFTER_SECONDS));
  }
  const body = JSON.stringify({ error: code, message });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
