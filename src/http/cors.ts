import cors from 'cors';
import type { RequestHandler } from 'express';

/**
 * Response headers a browser script on an allowed origin may read, beyond the CORS-safelisted
 * ones: conditional requests, both rate-limit header families the market-data gate sends
 * (`src/modules/api-keys/api-key.gate.ts`), the 429 / 503 back-off, request tracing, and the
 * deprecation notice of a retired route (`rest-adapter/express-router.ts`).
 */
export const CORS_EXPOSED_HEADERS = [
  'ETag',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
  'Retry-After',
  'X-Request-Id',
  'Deprecation',
  'Link',
] as const;

/**
 * Request headers a cross-origin caller may send: the credentials of every surface (bearer,
 * market-data key, the admin tokens a browser console uses), idempotent writes, stream resumption,
 * conditional reads, request tracing, graphql-sse's reservation token, and Apollo's CSRF-prevention
 * headers (`Content-Type: application/json` or either Apollo header forces the preflight that
 * this answers, so CSRF prevention keeps working). Webhook secrets are absent: webhooks are
 * server-to-server.
 */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'Last-Event-ID',
  'If-None-Match',
  'X-API-Key',
  'X-Admin-Token',
  'X-Rewards-Admin-Token',
  'X-Feed-Ingest-Token',
  'X-Request-Id',
  'X-GraphQL-Event-Stream-Token',
  'Apollo-Require-Preflight',
  'X-Apollo-Operation-Name',
] as const;

/** How long a browser may reuse a preflight answer (seconds). */
export const CORS_MAX_AGE_SECONDS = 600;

/**
 * CORS for the origins of `CORS_ORIGINS`, on every route. A request from an origin on the list gets
 * the CORS headers (credentials allowed, the origin echoed, never `*`); its preflight is answered
 * here with 204, before the market-data key gate would refuse it. Any other origin gets no CORS
 * header at all and its request goes on as a same-origin one would, so the browser withholds the
 * answer. An empty list mounts nothing: same-origin only.
 */
export function corsMiddleware(origins: readonly string[]): RequestHandler | undefined {
  if (origins.length === 0) return undefined;
  const allowed = new Set(origins);
  const handler = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: [...CORS_ALLOWED_HEADERS],
    exposedHeaders: [...CORS_EXPOSED_HEADERS],
    maxAge: CORS_MAX_AGE_SECONDS,
  });
  return (req, res, next) => {
    // The answer depends on Origin for every origin, listed or not: say so to shared caches.
    res.vary('Origin');
    handler(req, res, next);
  };
}
