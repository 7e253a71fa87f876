/** Bounds of the public user stats. */
export const USER_STATS_LIMITS = { userId: { max: 200 } } as const;

/** Rolling windows of the product metrics, in days. */
export const PRODUCT_METRIC_WINDOWS_DAYS = { short: 7, long: 30 } as const;

/** Rows of each part of the home screen (fixed: the screen's layout). */
export const HOME_LIMITS = {
  activity: 20,
  trending: 10,
  /** `category`: a category name as events carry it. */
  category: { max: 100 },
} as const;

/** The bound on markets one friends-traded question may name. */
export const FRIENDS_TRADED_MAX_MARKETS = 50;
