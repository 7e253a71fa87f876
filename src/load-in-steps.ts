/**
 * The app's modules, loaded one group at a time with a turn of the event loop between groups, so
 * that the server already listening (src/http/waiting-server.ts) answers `/health` while the
 * module graph loads (about a second of compiling, in one piece otherwise). The order is the one
 * `require('./services')` would load them in (services.ts, then the registry's imports, depth first):
 * the modules' decorators register their GraphQL types in the same order either way. A module missing
 * here still loads (with the registry), only in one step with it; a test holds the list to the registry.
 */
export const APP_LOAD_STEPS: readonly string[] = [
  // Libraries first (they register no GraphQL types), the largest on their own.
  'graphql',
  'type-graphql',
  'class-validator',
  'zod',
  './db',
  'jose',
  'ioredis',
  'graphql-scalars',
  'express',
  '@apollo/server',
  './kernel',
  './modules/admin',
  './modules/account-streams/account-streams.module',
  './modules/accounts/accounts.module',
  './modules/admin/admin.module',
  './modules/api-keys/api-keys.module',
  './modules/charts/charts.module',
  './modules/comments/comments.module',
  './modules/comparisons/comparisons.module',
  './modules/events/events.module',
  './modules/execution/execution.module',
  './modules/feed/feed.module',
  './modules/funding/funding.module',
  './modules/idempotency/idempotency.module',
  './modules/ingestion/ingestion.module',
  './modules/ledger/ledger.module',
  './modules/linkproof/linkproof.module',
  './modules/market-data/market-data.module',
  './modules/market-streams/market-streams.module',
  './modules/markets/markets.module',
  './modules/notifications/notifications.module',
  './modules/paper/paper.module',
  './modules/ops/ops.module',
  './modules/portfolio/portfolio.module',
  './modules/rewards/rewards.module',
  './modules/routing/routing.module',
  './modules/search/search.module',
  './modules/social/copytrade/copytrade.module',
  './modules/social/follows/follows.module',
  './modules/social/home/home.module',
  './modules/social/traders/traders.module',
  './modules/trades/trades.module',
  './modules/usage/usage.module',
  './modules/wallets/wallets.module',
  './modules/webhooks/webhooks.module',
  './modules/registry',
  './open-platform',
  './services',
  './server',
];

/** Requires each of `steps` with `load`, yielding to the event loop after each. */
export async function loadInSteps(
  steps: readonly string[],
  load: (id: string) => unknown,
  took?: (id: string, ms: number) => void,
): Promise<void> {
  for (const id of steps) {
    const started = performance.now();
    load(id);
    took?.(id, performance.now() - started);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
