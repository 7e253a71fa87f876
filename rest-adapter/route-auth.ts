import type { RouteAuth } from './route.types';

/**
 * What a route's credential check asks of the request: the part of the
 * server's per-request auth it calls (its `RequestAuth` satisfies it), so the
 * adapter depends on no context shape.
 */
export interface RouteCredentials {
  /** A valid user or wallet-auth bearer token; 401 otherwise. */
  requireAnyBearer(): Promise<void>;
  /** A valid user bearer token; 401 otherwise. */
  requireUser(): Promise<unknown>;
  /** A named header token; 401 when missing or wrong, 500 when an optional one is not configured. */
  requireHeaderToken(which: 'admin' | 'rewardsAdmin' | 'feedIngest' | 'indexer'): void;
  /** 500 when a secret the operation needs is not configured. */
  requireConfigured(which: 'payment'): void;
}

/**
 * Checks the credential a route's `auth` names before its inputs are read, so a
 * caller without one gets the documented 401 (or the 500 of a webhook whose
 * secret is not configured) whatever it sent, and learns nothing of the input
 * rules. The resolvers keep their own checks: they are the rule for GraphQL
 * callers, and re-asking is free (verification is memoized per request).
 *
 * `optional-bearer` (`/execute`: live mode needs the wallet token, which the
 * body decides), `api-key` (the market-data gate ran before routing) and
 * `none` have nothing to check here. A payment signature covers the body, so
 * only the configured secret is checked before it.
 */
export async function authenticateRoute(auth: RouteAuth, credentials: RouteCredentials): Promise<void> {
  switch (auth) {
    case 'none':
    case 'optional-bearer':
    case 'api-key':
      return;
    case 'bearer':
      // Live sells and copies carry the wallet-auth token instead of the user's: either will do here.
      await credentials.requireAnyBearer();
      return;
    case 'bearer+admin':
      await credentials.requireUser();
      credentials.requireHeaderToken('admin');
      return;
    case 'admin':
      credentials.requireHeaderToken('admin');
      return;
    case 'rewards-admin':
      credentials.requireHeaderToken('rewardsAdmin');
      return;
    case 'feed-ingest':
      credentials.requireHeaderToken('feedIngest');
      return;
    case 'indexer-secret':
      credentials.requireHeaderToken('indexer');
      return;
    case 'payment-signature':
      credentials.requireConfigured('payment');
      return;
    default: {
      const unhandled: never = auth;
      throw new Error(`unhandled route auth ${String(unhandled)}`);
    }
  }
}
