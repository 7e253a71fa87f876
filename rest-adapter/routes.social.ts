import { z } from 'zod';
import {
  FollowDocument,
  FollowTradesDocument,
  FollowsDocument,
  FriendsTradedDocument,
  LeaderboardDocument,
  LeaderboardMeDocument,
  MyStatsDocument,
  ProductMetricsDocument,
  RefreshLeaderboardDocument,
  SocialOverviewDocument,
  TraderDocument,
  TraderTradesDocument,
  UnfollowDocument,
  UserStatsDocument,
  type LeaderboardSort,
} from '../schema/generated/operations';
import { FOLLOW_LIMITS as L } from '../src/modules/social/follows/follows.limits';
import { FRIENDS_TRADED_MAX_MARKETS, USER_STATS_LIMITS as US } from '../src/modules/social/home/home.limits';
import {
  FOLLOW_TRADES_LIMITS as FT,
  LEADERBOARD_LIMITS as LL,
  LEADERBOARD_ME_LIMITS as LM,
  LEADERBOARD_SORTS,
} from '../src/modules/social/traders/traders.limits';
import { HISTORY_INTERVALS, HISTORY_LIMITS } from '../src/modules/charts/charts.limits';
import { VENUES } from '../src/venues/venue.models';
import { int, oneOf, requiredStr } from './params';
import { route } from './route.types';

const venue = z.enum(VENUES, { error: `must be one of ${VENUES.join(', ')}` });
const common = { surface: 'trading', auth: 'bearer', tags: ['social'] } as const;

/** Follows (the social graph the feed, bubbles and copytrading read). */
export const socialRoutes = [
  route({
    ...common,
    id: 'follow',
    method: 'POST',
    path: '/api/follows',
    summary: 'Follow a trader (idempotent: following again returns the follow).',
    params: { body: z.object({ venue, traderId: requiredStr(100) }) },
    document: FollowDocument,
    result: 'follow',
    status: 201,
    errors: [400, 401, 429],
  }),
  route({
    ...common,
    id: 'listFollows',
    method: 'GET',
    path: '/api/follows',
    summary: "The caller's follows, newest first.",
    params: {
      query: z.object({
        limit: int(L.limit.min, L.limit.max, L.limit.default),
        offset: int(L.offset.min, L.offset.max, 0),
      }),
    },
    document: FollowsDocument,
    result: 'follows',
    errors: [400, 401],
  }),
  route({
    ...common,
    id: 'unfollow',
    method: 'DELETE',
    path: '/api/follows/{venue}/{traderId}',
    summary: 'Unfollow a trader (idempotent).',
    params: { path: z.object({ venue, traderId: requiredStr(100) }) },
    document: UnfollowDocument,
    result: 'unfollow',
    errors: [400, 401, 429],
  }),
];

const traderPath = z.object({ venue, traderId: requiredStr(100) });
const paging = {
  limit: int(LL.limit.min, LL.limit.max, LL.limit.default),
  offset: int(LL.offset.min, LL.offset.max, 0),
};

/** Leaderboard and trader profiles (public), and the admin refresh. */
export const traderRoutes = [
  route({
    id: 'leaderboard',
    surface: 'trading',
    method: 'GET',
    path: '/api/leaderboard',
    summary: 'Traders ranked by total_volume, total_pnl, win_count or total_trades.',
    auth: 'none',
    params: { query: z.object({ sort_by: oneOf(LEADERBOARD_SORTS), venue: oneOf(VENUES), ...paging }) },
    document: LeaderboardDocument,
    variables: ({ sort_by, ...rest }: Record<string, unknown>) => ({
      ...rest,
      sortBy: sort_by as LeaderboardSort | undefined,
    }),
    result: 'leaderboard',
    errors: [400],
    tags: ['social'],
  }),
  route({
    id: 'refreshLeaderboard',
    surface: 'trading',
    method: 'POST',
    path: '/api/leaderboard/refresh',
    summary: 'Recompute every trader from the trades, marking open positions to market.',
    auth: 'bearer+admin',
    document: RefreshLeaderboardDocument,
    result: 'refreshLeaderboard',
    errors: [401],
    tags: ['social'],
  }),
  route({
    id: 'trader',
    surface: 'trading',
    method: 'GET',
    path: '/api/traders/{venue}/{traderId}',
    summary: 'A trader: stats, followers and volume rank.',
    auth: 'none',
    params: { path: traderPath },
    document: TraderDocument,
    result: 'trader',
    errors: [404],
    tags: ['social'],
  }),
  route({
    id: 'traderTrades',
    surface: 'trading',
    method: 'GET',
    path: '/api/traders/{venue}/{traderId}/trades',
    summary: "A trader's public trades, newest first.",
    auth: 'none',
    params: { path: traderPath, query: z.object(paging) },
    document: TraderTradesDocument,
    result: 'traderTrades',
    errors: [400],
    tags: ['social'],
  }),
];

/** The discovery hub and the friends-traded lookup. */
export const discoveryRoutes = [
  route({
    id: 'socialOverview',
    surface: 'trading',
    method: 'GET',
    path: '/api/social/overview',
    summary: 'Public discovery hub: top traders, hot events, active comments (one query).',
    auth: 'none',
    params: { query: z.object({ size: int(1, 50, 10) }) },
    document: SocialOverviewDocument,
    result: 'socialOverview',
    errors: [400],
    tags: ['social'],
  }),
  route({
    id: 'friendsTraded',
    surface: 'trading',
    method: 'POST',
    path: '/api/social/friends-traded',
    summary: `Which followed traders hold positions on the given markets (at most ${FRIENDS_TRADED_MAX_MARKETS}).`,
    auth: 'bearer',
    params: {
      body: z.object({
        markets: z
          .array(z.object({ venue, marketId: requiredStr(200) }))
          .min(1, { error: 'must name at least one market' })
          .max(FRIENDS_TRADED_MAX_MARKETS, { error: `must name at most ${FRIENDS_TRADED_MAX_MARKETS} markets` }),
      }),
    },
    document: FriendsTradedDocument,
    result: 'friendsTraded',
    errors: [400, 401],
    tags: ['social'],
  }),
];

/** The follow-trade overlay, the caller's rank, user stats and product metrics. */
export const socialInsightRoutes = [
  route({
    id: 'followTrades',
    surface: 'trading',
    method: 'GET',
    path: '/api/events/{eventId}/follow-trades',
    summary:
      "Followed traders' trades on the event's markets as chart bubbles: grouped by candle bucket (as history " +
      'snaps), venue, market, side and outcome; the top N traders by size in each. venue_b bubbles are empty ' +
      '(its feed has no trader identity).',
    auth: 'bearer',
    params: {
      path: z.object({ eventId: requiredStr(200) }),
      query: z.object({
        interval: oneOf(HISTORY_INTERVALS),
        from: int(HISTORY_LIMITS.time.min, HISTORY_LIMITS.time.max),
        to: int(HISTORY_LIMITS.time.min, HISTORY_LIMITS.time.max),
        topN: int(FT.topN.min, FT.topN.max, FT.topN.default),
      }),
    },
    document: FollowTradesDocument,
    result: 'followTrades',
    errors: [400, 401, 404],
    tags: ['social'],
  }),
  route({
    id: 'leaderboardMe',
    surface: 'trading',
    method: 'GET',
    path: '/api/leaderboard/me',
    summary:
      "The caller's rank and neighbours (the caller's traders: their polygon wallets on venue_a); rank null " +
      'when none has traded.',
    auth: 'bearer',
    params: {
      query: z.object({
        sort_by: oneOf(LEADERBOARD_SORTS),
        neighbours: int(LM.neighbours.min, LM.neighbours.max, LM.neighbours.default),
      }),
    },
    document: LeaderboardMeDocument,
    variables: ({ sort_by, ...rest }: Record<string, unknown>) => ({
      ...rest,
      sortBy: sort_by as LeaderboardSort | undefined,
    }),
    result: 'leaderboardMe',
    errors: [400, 401],
    tags: ['social'],
  }),
  route({
    id: 'myStats',
    surface: 'trading',
    method: 'GET',
    path: '/api/stats',
    summary:
      "The caller's public stats: verified wallets' trading, live orders placed here (never paper), social counts.",
    auth: 'bearer',
    document: MyStatsDocument,
    result: 'myStats',
    errors: [401],
    tags: ['social'],
  }),
  route({
    id: 'userStats',
    surface: 'trading',
    method: 'GET',
    path: '/api/stats/{userId}',
    summary: "Any user's public stats (zeros and joinedAt null for a user with no activity).",
    auth: 'none',
    params: { path: z.object({ userId: requiredStr(US.userId.max) }) },
    document: UserStatsDocument,
    result: 'userStats',
    errors: [400],
    tags: ['social'],
  }),
  route({
    id: 'productMetrics',
    surface: 'trading',
    method: 'GET',
    path: '/api/product/metrics',
    summary:
      'Users, active users (7/30 days), trades, volume and the sign-up → wallet linked or funded → first trade funnel.',
    auth: 'bearer+admin',
    document: ProductMetricsDocument,
    result: 'productMetrics',
    errors: [401],
    tags: ['social'],
  }),
];
