import { ModuleDefinition } from '../kernel';
import { accountStreamsModule } from './account-streams/account-streams.module';
import { accountsModule } from './accounts/accounts.module';
import { adminModule } from './admin/admin.module';
import { apiKeysModule } from './api-keys/api-keys.module';
import { chartsModule } from './charts/charts.module';
import { commentsModule } from './comments/comments.module';
import { comparisonsModule } from './comparisons/comparisons.module';
import { eventsModule } from './events/events.module';
import { executionModule } from './execution/execution.module';
import { feedModule } from './feed/feed.module';
import { fundingModule } from './funding/funding.module';
import { idempotencyModule } from './idempotency/idempotency.module';
import { ingestionModule } from './ingestion/ingestion.module';
import { ledgerModule } from './ledger/ledger.module';
import { linkProofModule } from './linkproof/linkproof.module';
import { marketDataModule } from './market-data/market-data.module';
import { marketStreamsModule } from './market-streams/market-streams.module';
import { marketsModule } from './markets/markets.module';
import { notificationsModule } from './notifications/notifications.module';
import { paperModule } from './paper/paper.module';
import { opsModule } from './ops/ops.module';
import { portfolioModule } from './portfolio/portfolio.module';
import { rewardsModule } from './rewards/rewards.module';
import { routingModule } from './routing/routing.module';
import { searchModule } from './search/search.module';
import { copytradeModule } from './social/copytrade/copytrade.module';
import { followsModule } from './social/follows/follows.module';
import { homeModule } from './social/home/home.module';
import { tradersModule } from './social/traders/traders.module';
import { tradesModule } from './trades/trades.module';
import { usageModule } from './usage/usage.module';
import { walletsModule } from './wallets/wallets.module';
import { webhooksModule } from './webhooks/webhooks.module';

/**
 * Every module of the service, in dependency order: a module's services may use
 * those of the modules above it. Schema building, the GraphQL context, service
 * wiring, start (top to bottom) and shutdown (bottom to top) read this list.
 * Adding a domain: a folder with its manifest, and one line here.
 */
export const MODULES: readonly ModuleDefinition[] = [
  ledgerModule,
  paperModule,
  idempotencyModule,
  notificationsModule,
  walletsModule,
  accountsModule,
  fundingModule,
  eventsModule,
  marketStreamsModule,
  marketsModule,
  chartsModule,
  searchModule,
  commentsModule,
  routingModule,
  portfolioModule,
  executionModule,
  accountStreamsModule,
  rewardsModule,
  linkProofModule,
  feedModule,
  tradersModule,
  followsModule,
  copytradeModule,
  homeModule,
  tradesModule,
  ingestionModule,
  webhooksModule,
  apiKeysModule,
  usageModule,
  marketDataModule,
  comparisonsModule,
  adminModule,
  opsModule,
];
