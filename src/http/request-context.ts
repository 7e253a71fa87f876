import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { RequestAuth, type AuthVerifiers, type HeaderTokens } from '../auth/request-auth';
import { createContext, type GraphQLContext } from '../context';
import { apiKeyAccessFor } from '../modules/api-keys/api-key.access';
import type { ApiKeyPrincipal } from '../modules/api-keys/api-keys.models';
import type { AppServices } from '../kernel';
import { ApiKeyGate } from '../modules/api-keys/api-key.gate';
import { clientAddressOf } from './stream-limits';

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
  req: {
    headers: IncomingHttpHeaders;
    ip?: string;
    socket: { remoteAddress?: string };
    /** The express response: where the market-data gate left the admitted key, and where rate-limit headers go. */
    res?: { locals?: Record<string, unknown>; headersSent?: boolean; setHeader?(name: string, value: string): unknown };
  },
  requestId: string,
): GraphQLContext {
  const header = (name: string): string | undefined => {
    const v = req.headers[name.toLowerCase()];
    return Array.isArray(v) ? v[0] : v;
  };
  // The payment webhook's key is configuration the route checks for before reading the body.
  const secrets = { payment: deps.services.config.webhooks.paymentSecret };
  const auth = new RequestAuth(
    { authorization: header('authorization'), header },
    deps.verifiers,
    deps.tokens,
    secrets,
  );
  const clientId = clientAddressOf(req);
  const res = req.res;
  const apiKey = apiKeyAccessFor(deps.services.get(ApiKeyGate), {
    header,
    clientId,
    admitted: res?.locals?.apiKey as ApiKeyPrincipal | undefined,
    setHeader: (name, value) => {
      if (res?.setHeader && !res.headersSent) res.setHeader(name, value);
    },
  });
  return createContext(deps.services, { requestId, clientId, auth, header, apiKey });
}
