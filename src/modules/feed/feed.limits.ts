/** Bounds of the feed surface. */
export const FEED_LIMITS = {
  limit: { min: 1, max: 200, default: 50 },
  cursor: { max: 2000 },
  batch: { max: 500 },
  source: { max: 64 },
  externalId: { max: 200 },
  title: { max: 300 },
  summary: { max: 5000 },
  url: { max: 2000 },
  author: { max: 200 },
  category: { max: 64 },
  tags: { max: 20, length: 40 },
} as const;

/** The pub/sub topic new feed items are published on. */
export const FEED_TOPIC = 'feed';
