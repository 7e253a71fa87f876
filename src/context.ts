import type { RequestAuth } from './auth/request-auth';
import type { AppServices, LoaderLocator } from './kernel';
import { ApiKeyAccess } from './modules/api-keys/api-key.access';

/**
 * What every resolver receives. A `type` alias (not an interface): graphql-sse's
 * generics require it. It names no domain: resolvers ask for their services
 * (`ctx.services.get(EventsService)`) and loaders (`ctx.loaders.get(eventsLoaders)`).
 */
export type GraphQLContext = {
  requestId: string;
  /** Who to rate-limit anonymous callers as: the client address. */
  clientId: string;
  auth: RequestAuth;
  /** The market-data API key: `require(scope)` authenticates, limits and counts the request once. */
  apiKey: ApiKeyAccess;
  /**
   * A request header (lower-case name), for protocol headers an operation
   * honours: `Idempotency-Key`, `Last-Event-ID`. Undefined outside HTTP.
   */
  header: (name: string) => string | undefined;
  services: AppServices;
  /** This request's DataLoaders, each set built on first use. */
  loaders: LoaderLocator;
};

/** The context factory shared by /graphql, /graphql/stream and the REST adapter. */
export function createContext(
  services: AppServices,
  req: {
    requestId: string;
    clientId: string;
    auth: RequestAuth;
    header?: (name: string) => string | undefined;
    apiKey?: ApiKeyAccess;
  },
): GraphQLContext {
  return {
    header: () => undefined,
    ...req,
    apiKey: req.apiKey ?? ApiKeyAccess.none(),
    services,
    loaders: services.requestLoaders(),
  };
}
