import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema, type NonEmptyArray } from 'type-graphql';
import { EventsResolver, MarketFieldsResolver } from '../modules/events';
import { EventHistoryResolver } from '../modules/charts';
import { MarketScreensResolver, TradeMarketResolver } from '../modules/markets';
import { SearchResolver } from '../modules/search';
import { CommentsResolver } from '../modules/comments';
import { FeedResolver } from '../modules/feed';
import { RoutingResolver } from '../modules/routing';
import { ExecutionResolver } from '../modules/execution';
import { RewardsAdminResolver, RewardsResolver } from '../modules/rewards';
import { LinkProofResolver } from '../modules/linkproof';
import { AdminResolver } from '../modules/admin';
import { AccountsResolver } from '../modules/accounts';
import { FundingResolver } from '../modules/funding';
import { WalletsResolver } from '../modules/wallets';
import { WebhooksResolver } from '../modules/webhooks';
import { NotificationsResolver } from '../modules/notifications';
import { IngestionResolver } from '../modules/ingestion';
import { OpsResolver } from '../modules/ops';
import { CopytradeResolver } from '../modules/social/copytrade/copytrade.resolver';
import { FollowsResolver } from '../modules/social/follows/follows.resolver';
import { DiscoveryResolver } from '../modules/social/home/discovery.resolver';
import { HomeResolver } from '../modules/social/home/home.resolver';
import { UserStatsResolver } from '../modules/social/home/user-stats.resolver';
import { FollowTradesResolver } from '../modules/social/traders/follow-trades.resolver';
import { LeaderboardResolver } from '../modules/social/traders/leaderboard.resolver';
import { TradesResolver } from '../modules/trades';
import { ApiKeysResolver } from '../modules/api-keys';
import { ComparisonsResolver } from '../modules/comparisons';
import { MarketDataResolver } from '../modules/market-data';
import { UsageResolver } from '../modules/usage';
import { OrdersResolver, PortfolioResolver, PortfolioTradeResolver, PositionsResolver } from '../modules/portfolio';
import { validateArgs } from './validate-args';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
const RESOLVERS: NonEmptyArray<Function> = [
  AccountsResolver,
  ApiKeysResolver,
  UsageResolver,
  MarketDataResolver,
  ComparisonsResolver,
  WalletsResolver,
  FundingResolver,
  WebhooksResolver,
  EventsResolver,
  MarketFieldsResolver,
  EventHistoryResolver,
  MarketScreensResolver,
  TradeMarketResolver,
  SearchResolver,
  TradesResolver,
  OpsResolver,
  IngestionResolver,
  FeedResolver,
  RoutingResolver,
  ExecutionResolver,
  RewardsResolver,
  RewardsAdminResolver,
  LinkProofResolver,
  AdminResolver,
  CommentsResolver,
  FollowsResolver,
  LeaderboardResolver,
  DiscoveryResolver,
  FollowTradesResolver,
  UserStatsResolver,
  HomeResolver,
  CopytradeResolver,
  NotificationsResolver,
  PortfolioResolver,
  PositionsResolver,
  OrdersResolver,
  PortfolioTradeResolver,
];

let built: Promise<GraphQLSchema> | undefined;

/**
 * Every subscription here subscribes through the request context's pub/sub (the
 * `subscribe` option), because the schema is shared by app instances with their
 * own infra. type-graphql insists on a global PubSub regardless; this one refuses
 * use so a subscription declared with `topics` fails loudly instead of silently.
 */
const contextOnlyPubSub = {
  publish(): never {
    throw new Error('publish through context.services.infra.pubsub');
  },
  subscribe(): never {
    throw new Error('declare subscriptions with the `subscribe` option (context pub/sub)');
  },
};

/** The one executable schema (built once per process; type-graphql metadata is global). */
export function getSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({
    resolvers: RESOLVERS,
    validateFn: validateArgs,
    pubSub: contextOnlyPubSub,
  });
  return built;
}

/** The SDL committed as schema/schema.graphql (sorted, so diffs stay readable). */
export async function printSdl(): Promise<string> {
  return `${printSchema(lexicographicSortSchema(await getSchema()))}\n`;
}
