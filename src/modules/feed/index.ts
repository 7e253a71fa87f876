export { FeedService, type FeedPage, type FeedQuality, type IngestReport } from './feed.service';
export { FeedResolver } from './feed.resolver';
export { FEED_LIMITS, FEED_TOPIC } from './feed.limits';
export * from './feed.models';
