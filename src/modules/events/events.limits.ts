/**
 * Input bounds of the events surface (the interface document's Limits section).
 * GraphQL argument validation and the REST parameter schemas both read these.
 */
export const EVENTS_LIMITS = {
  page: { min: 1, max: 2000, default: 1 },
  pageSize: { min: 1, max: 100, default: 20 },
  searchLength: { max: 200 },
} as const;

export const DISCOVER_SORTS = ['activity_desc', 'updated_desc', 'close_asc'] as const;
export type DiscoverSort = (typeof DISCOVER_SORTS)[number];

export const MARKET_SORTS = ['volume_desc', 'updated_desc', 'close_asc'] as const;
export type MarketSort = (typeof MARKET_SORTS)[number];
