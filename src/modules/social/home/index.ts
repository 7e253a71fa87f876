export { HomeService } from './home.service';
export { DiscoveryService } from './discovery.service';
export { UserStatsService } from './user-stats.service';
export { ProductMetricsService } from './product-metrics.service';
export * from './home.limits';
