import type { AnyRouteDef } from './route.types';
import { accountRoutes } from './routes.accounts';
import { accountStreamRoutes } from './routes.account-streams';
import { commentRoutes } from './routes.comments';
import { chartRoutes } from './routes.charts';
import { eventRoutes } from './routes.events';
import { feedRoutes } from './routes.feed';
import { routingRoutes } from './routes.routing';
import { executionRoutes } from './routes.execution';
import { rewardRoutes } from './routes.rewards';
import { linkProofRoutes } from './routes.linkproof';
import { adminRoutes } from './routes.admin';
import { fundingRoutes } from './routes.funding';
import { marketRoutes } from './routes.markets';
import { marketDataRoutes } from './routes.market-data';
import { marketStreamRoutes } from './routes.market-streams';
import { notificationRoutes } from './routes.notifications';
import { opsRoutes } from './routes.ops';
import { portfolioRoutes } from './routes.portfolio';
import { searchRoutes } from './routes.search';
import { discoveryRoutes, socialInsightRoutes, socialRoutes, traderRoutes } from './routes.social';
import { homeRoutes } from './routes.home';
import { copytradeRoutes } from './routes.copytrade';
import { walletRoutes } from './routes.wallets';
import { webhookRoutes } from './routes.webhooks';

/** The one route table: every REST path the service serves. */
export const ROUTES: readonly AnyRouteDef[] = [
  ...accountRoutes,
  ...walletRoutes,
  ...fundingRoutes,
  ...webhookRoutes,
  ...eventRoutes,
  ...chartRoutes,
  ...searchRoutes,
  ...marketRoutes,
  ...opsRoutes,
  ...accountStreamRoutes,
  ...feedRoutes,
  ...routingRoutes,
  ...executionRoutes,
  ...rewardRoutes,
  ...linkProofRoutes,
  ...adminRoutes,
  ...commentRoutes,
  ...socialRoutes,
  ...traderRoutes,
  ...discoveryRoutes,
  ...socialInsightRoutes,
  ...homeRoutes,
  ...copytradeRoutes,
  ...notificationRoutes,
  ...portfolioRoutes,
  ...marketDataRoutes,
  ...marketStreamRoutes,
];
