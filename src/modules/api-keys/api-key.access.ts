import { AppError } from '../../errors/app-error';
import { GRAPHQL_ENDPOINT } from '../usage/usage.limits';
import { credentialFrom, type ApiKeyGate } from './api-key.gate';
import { API_KEY_PREFIX, type ApiScope } from './api-keys.limits';
import type { ApiKeyPrincipal } from './api-keys.models';

/**
 * The request's API key as resolvers see it (`ctx.apiKey`). Admission runs at
 * most once per request, on first use, so a GraphQL request selecting several
 * market-data fields is authenticated, limited and counted once.
 */
export class ApiKeyAccess {
  private admitted?: Promise<ApiKeyPrincipal>;
  private cost?: number;

  /** `admit` gets the operation's cost when one was {@link charge}d (GraphQL), else undefined (one request). */
  constructor(private readonly admit: (cost: number | undefined) => Promise<ApiKeyPrincipal>) {}

  /** Already admitted (the REST gate did it before routing). */
  static of(principal: ApiKeyPrincipal): ApiKeyAccess {
    return new ApiKeyAccess(async () => principal);
  }

  /** No HTTP request to take a key from. */
  static none(): ApiKeyAccess {
    return new ApiKeyAccess(async () => {
      throw AppError.unauthorized('an API key is required');
    });
  }

  /**
   * Records the operation's computed cost (GraphQL, before execution): an admission after it
   * charges the key's quota by that cost (`ApiKeyGate.admit`) rather than one request.
   */
  charge(cost: number): void {
    this.cost = cost;
  }

  /** The key, which must carry `scope` (401 without a valid key, 429 over its limit, 403 without the scope). */
  async require(scope: ApiScope): Promise<ApiKeyPrincipal> {
    this.admitted ??= this.admit(this.cost);
    const principal = await this.admitted;
    if (!principal.scopes.includes(scope)) throw AppError.forbidden(`this API key lacks the ${scope} scope`);
    return principal;
  }
}

/** What an HTTP request offers the access check. */
export interface HttpKeySource {
  header: (name: string) => string | undefined;
  clientId: string;
  /** Set by the market-data REST gate when it already admitted the request. */
  admitted?: ApiKeyPrincipal;
  /** Adds a response header (rate-limit headers on /graphql); absent outside HTTP. */
  setHeader?(name: string, value: string): void;
}

/** The access of an HTTP request: the REST gate's principal, or a lazy admission through the gate (GraphQL). */
export function apiKeyAccessFor(gate: ApiKeyGate, http: HttpKeySource): ApiKeyAccess {
  if (http.admitted) return ApiKeyAccess.of(http.admitted);
  return new ApiKeyAccess(async (cost) => {
    const a = await gate.admit({
      credential: credentialFrom(http.header, { bearerOnlyIfKey: true, keyPrefix: API_KEY_PREFIX }),
      clientId: http.clientId,
      endpoint: GRAPHQL_ENDPOINT,
      consume: true,
      cost,
    });
    for (const [name, value] of Object.entries(a.headers)) http.setHeader?.(name, value);
    if (a.error) throw a.error;
    return a.principal!;
  });
}
