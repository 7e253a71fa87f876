export { FollowsService, type FollowView, type FollowPage } from './follows.service';
export { FollowsResolver, FOLLOW_LIMITS } from './follows.resolver';
export { normalizeTraderId } from './trader-id';
export { TraderStatsService } from './trader-stats.service';
export { LeaderboardService, LEADERBOARD_SORTS } from './leaderboard.service';
export { LeaderboardResolver, LEADERBOARD_LIMITS } from './leaderboard.resolver';
export { SocialService, FRIENDS_TRADED_MAX_MARKETS } from './social.service';
export { SocialResolver } from './social.resolver';
