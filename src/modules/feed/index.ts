export { FeedService, type FeedPage, type FeedQuality, type IngestReport } from './feed.service';
export { FEED_LIMITS, FEED_TOPIC } from './feed.limits';
export * from './feed.models';
