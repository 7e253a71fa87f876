import type { ServerResponse } from 'node:http';
import type { ErrorDetails } from '../errors/app-error';
import { statusForCode, type ErrorCode } from '../errors/error-codes';

/** Writes the error body of both surfaces: `{ error, message }` with the table's status. */
export function sendError(res: ServerResponse, code: ErrorCode, message: string, details?: ErrorDetails): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const status = statusForCode(code);
  const retryAfter = details?.retryAfter;
  if (code === 'rate_limited' && typeof retryAfter === 'number') res.setHeader('retry-after', String(retryAfter));
  const body = JSON.stringify({ error: code, message });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
