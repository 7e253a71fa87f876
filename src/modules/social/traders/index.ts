export { TraderStatsService } from './trader-stats.service';
export { LeaderboardService, type TraderTradeView } from './leaderboard.service';
export { FollowTradesService } from './follow-trades.service';
export { normalizeTraderId } from './trader-id';
export * from './traders.limits';
