/**
 * The one table of error codes: each maps to an HTTP status. GraphQL errors carry
 * the same code in `extensions.code`; REST bodies are `{ error, message }`.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  upstream_error: 502,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_STATUS, value);
}

/** Status for a code; codes outside the table are internal errors. */
export function statusForCode(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
