import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { RequestAuth, type AuthVerifiers, type HeaderTokens } from '../auth/request-auth';
import { createContext, type GraphQLContext } from '../context';
import type { AppServices } from '../services';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A request id: the caller's `X-Request-Id` when it is sane, else a new UUID. */
export function requestIdFrom(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export interface ContextDeps {
  services: AppServices;
  verifiers: AuthVerifiers;
  tokens: HeaderTokens;
}

/** Builds the GraphQL context for any HTTP request (GraphQL, REST, SSE). */
export function contextFromHttp(
  deps: ContextDeps,
  req: { headers: IncomingHttpHeaders; ip?: string; socket: { remoteAddress?: string } },
  requestId: string,
): GraphQLContext {
  const header = (name: string): string | undefined => {
    const v = req.headers[name.toLowerCase()];
    return Array.isArray(v) ? v[0] : v;
  };
  const auth = new RequestAuth({ authorization: header('authorization'), header }, deps.verifiers, deps.tokens);
  return createContext(deps.services, {
    requestId,
    clientId: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    auth,
    header,
  });
}
