import type { RequestHandler } from 'express';
import { classifyGraphQLError } from '../../errors/classify-error';
import { sendError } from '../../http/send-error';
import { clientAddressOf } from '../../http/stream-limits';
import { UNMATCHED_ENDPOINT } from '../usage/usage.limits';
import { credentialFrom, type ApiKeyGate } from './api-key.gate';
import { AppError } from '../../errors/app-error';
import { QUOTA_FREE_ENDPOINTS, scopeForMethod } from './api-keys.limits';

/** Maps a request to the path template of the route that will serve it, if any. */
export type EndpointOf = (method: string, path: string) => string | undefined;

/**
 * The market-data surface's gate as express middleware, mounted before its
 * router: every response of the surface (401, 403, 404 and 429 included)
 * carries the rate-limit headers, and the admitted key is handed to the
 * GraphQL context through `res.locals.apiKey`. The route's scope is checked
 * here too (resolvers check it again for GraphQL callers), so routes whose
 * answers are cached per process stay guarded.
 */
export function apiKeyGateMiddleware(gate: ApiKeyGate, endpointOf: EndpointOf): RequestHandler {
  return (req, res, next) => {
    const matched = endpointOf(req.method, req.path);
    const endpoint = matched ?? UNMATCHED_ENDPOINT;
    const header = (name: string) => req.get(name);
    gate
      .admit({
        credential: credentialFrom(header),
        clientId: clientAddressOf(req),
        endpoint,
        consume: !QUOTA_FREE_ENDPOINTS.has(`${req.method} ${endpoint}`),
      })
      .then((a) => {
        for (const [name, value] of Object.entries(a.headers)) res.setHeader(name, value);
        if (a.error) return sendError(res, a.error.code, a.error.message, a.error.details);
        const scope = scopeForMethod(req.method);
        if (matched !== undefined && !a.principal!.scopes.includes(scope)) {
          const denied = AppError.forbidden(`this API key lacks the ${scope} scope`);
          return sendError(res, denied.code, denied.message);
        }
        res.locals.apiKey = a.principal;
        next();
      })
      .catch((err: unknown) => {
        // The limiter or the database failed: answer like the rest of the surface would.
        const c = classifyGraphQLError(err);
        if (c.unexpected !== undefined) return next(err);
        sendError(res, c.code, c.message, c.details);
      });
  };
}
