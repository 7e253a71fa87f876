import { accountsSettings } from './modules/accounts/accounts.settings';
import { authSettings } from './auth/auth.settings';
import { browserSettings } from './http/browser.settings';
import { commentsSettings } from './modules/comments/comments.settings';
import { copytradeSettings } from './modules/social/copytrade/copytrade.settings';
import { databaseSettings } from './db/database.settings';
import { eventsSettings } from './modules/events/events.settings';
import { executionSettings } from './modules/execution/execution.settings';
import { followsSettings } from './modules/social/follows/follows.settings';
import { fundingSettings } from './modules/funding/funding.settings';
import { graphqlSettings } from './graphql/graphql.settings';
import { httpSettings } from './http/http.settings';
import { ingestionSettings } from './modules/ingestion/ingestion.settings';
import { linkProofSettings } from './modules/linkproof/linkproof.settings';
import { marketDataSettings } from './modules/market-data/market-data.settings';
import { marketsSettings } from './modules/markets/markets.settings';
import { notificationsSettings } from './modules/notifications/notifications.settings';
import { paperSettings } from './modules/paper/paper.settings';
import { processSettings } from './kernel/process.settings';
import { readCachesSettings } from './graphql/pipeline/read-caches.settings';
import { redisSettings } from './infra/redis.settings';
import { rewardsSettings } from './modules/rewards/rewards.settings';
import { rolesSettings } from './kernel/roles.settings';
import { routingSettings } from './modules/routing/routing.settings';
import { searchSettings } from './modules/search/search.settings';
import { composeSettings, type ConfigOf } from './settings';
import { simSettings } from './venues/sim/sim.settings';
import { streamsSettings } from './http/streams.settings';
import { upstreamsSettings } from './upstreams/upstreams.settings';
import { venuesSettings } from './venues/venues.settings';
import { walletsSettings } from './modules/wallets/wallets.settings';
import { webhooksSettings } from './modules/webhooks/webhooks.settings';

/**
 * The only reader of `process.env`. Every variable is declared once, by the settings slice of the
 * part that reads it (a module's `<name>.settings.ts`, named by its manifest's `settings`; a
 * platform part's beside it); this file composes them. Every variable is parsed once at start; a bad
 * value stops the process with a message naming each offending variable. The slices are imported
 * here directly rather than through the module registry, so loading the configuration (the CLIs,
 * the database worker) loads no module, and the configuration's type, which manifests take, is
 * inferred from the slices alone.
 */

/**
 * Every settings slice, in the order of `.env.example` and of the docs' tables
 * (docs/configuration.md, generated: `npm run codegen`).
 */
export const SETTINGS = composeSettings([
  processSettings,
  httpSettings,
  databaseSettings,
  redisSettings,
  rolesSettings,
  streamsSettings,
  browserSettings,
  authSettings,
  upstreamsSettings,
  walletsSettings,
  fundingSettings,
  linkProofSettings,
  webhooksSettings,
  notificationsSettings,
  executionSettings,
  routingSettings,
  paperSettings,
  copytradeSettings,
  rewardsSettings,
  accountsSettings,
  eventsSettings,
  commentsSettings,
  followsSettings,
  marketsSettings,
  searchSettings,
  marketDataSettings,
  readCachesSettings,
  graphqlSettings,
  simSettings,
  venuesSettings,
  ingestionSettings,
]);

/** The application's configuration: every slice's settings, and the development defaults in use. */
export type AppConfig = ConfigOf<typeof SETTINGS.slices>;

/** Parses an environment (default `process.env`) into the application configuration. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  return SETTINGS.load(source, (values) => values.NODE_ENV === 'production');
}

export { ConfigError, MIN_SECRET_BYTES } from './settings';
export type { JwtVerifierConfig, TokenUse } from './auth/jwt-verifier';
export type { UpstreamConfig } from './upstreams/upstreams.settings';
export { VENUE_DEFAULT_URLS, type VenueSource, type VenuesConfig } from './venues/venues.settings';
