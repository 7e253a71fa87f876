import { GraphQLError } from 'graphql';
import { UNAVAILABLE_RETRY_AFTER_SECONDS, type AppError } from './app-error';
import type { ErrorCode } from './error-codes';
import { toAppError } from './normalize-error';

/** Apollo and graphql-js codes that mean the client sent a bad request. */
const CLIENT_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

export interface ClassifiedError {
  code: ErrorCode;
  message: string;
  details?: AppError['details'];
  /** The original error when it was unexpected (to be logged, never shown). */
  unexpected?: unknown;
}

/**
 * Classifies anything a GraphQL execution produced into the error table:
 * domain errors keep their code and message, request errors become bad_request,
 * everything else is masked as internal. Every `unavailable` carries `retryAfter`
 * (seconds: the error's own, else the default). Every surface answers through it
 * (GraphQL, its SSE stream, the REST adapter, the market-data gate).
 */
export function classifyGraphQLError(error: unknown): ClassifiedError {
  let original = error;
  // Resolver errors arrive wrapped (once by graphql-js, sometimes again by a server).
  while (original instanceof GraphQLError && original.originalError) original = original.originalError;
  const app = toAppError(original);
  // An internal AppError (a missing setting) shows its message, and is logged with its cause.
  if (app)
    return {
      code: app.code,
      message: app.message,
      details:
        app.code === 'unavailable' ? { retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS, ...app.details } : app.details,
      ...(app.code === 'internal' && { unexpected: app }),
    };
  if (original instanceof GraphQLError) {
    // A GraphQLError with no cause comes from parsing, validation or variable coercion.
    const code = original.extensions?.code;
    if (code === undefined || (typeof code === 'string' && CLIENT_CODES.has(code))) {
      return { code: 'bad_request', message: original.message };
    }
  }
  return { code: 'internal', message: 'internal error', unexpected: original };
}
