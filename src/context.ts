import type { RequestAuth } from './auth/request-auth';
import type { AppServices } from './services';
import { createCommentsLoaders, type CommentsLoaders } from './modules/comments';
import { ApiKeyAccess } from './modules/api-keys/api-key.access';
import { createComparisonsLoaders, type ComparisonsLoaders } from './modules/comparisons/comparisons.loaders';
import { createEventsLoaders, type EventsLoaders } from './modules/events';
import { createWalletsLoaders, type WalletsLoaders } from './modules/wallets';
import { createMarketsLoaders, type MarketsLoaders } from './modules/markets';
import { createPortfolioLoaders, type PortfolioLoaders } from './modules/portfolio';

/** Per-request DataLoaders of every domain, built once per request. */
export type Loaders = {
  events: EventsLoaders;
  comments: CommentsLoaders;
  comparisons: ComparisonsLoaders;
  wallets: WalletsLoaders;
  markets: MarketsLoaders;
  portfolio: PortfolioLoaders;
};

/**
 * What every resolver receives. A `type` alias (not an interface): graphql-sse's
 * generics require it.
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
  loaders: Loaders;
};

export function createLoaders(services: AppServices): Loaders {
  const markets = createMarketsLoaders(services.markets);
  return {
    events: createEventsLoaders(services.events),
    comments: createCommentsLoaders(services.comments),
    comparisons: createComparisonsLoaders(services.comparisons),
    wallets: createWalletsLoaders(services.wallets),
    markets,
    portfolio: createPortfolioLoaders(services.portfolio, services.marks, markets),
  };
}

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
    loaders: createLoaders(services),
  };
}
