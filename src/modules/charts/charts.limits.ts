import { INTERVAL_SECONDS } from '../../venues';
import { HISTORY_INTERVALS, type HistoryInterval } from '../../venues/venue.models';

/**
 * Bucket length of each interval in seconds (the venue contract's buckets:
 * they start at multiples of it since the epoch).
 */
export { HISTORY_INTERVALS, INTERVAL_SECONDS, type HistoryInterval };

/** Default range of a history request: `to` = now, `from` = now minus this window. */
export const HISTORY_LOOKBACK_SECONDS: Readonly<Record<HistoryInterval, number>> = {
  '1m': 6 * 3_600, // 6 hours: 361 one-minute candles
  '5m': 86_400, // 1 day: 289 candles
  '1h': 7 * 86_400, // 1 week: 169 candles
  '1d': 90 * 86_400, // ~3 months: 91 candles
  '1w': 104 * 604_800, // 2 years: 105 candles
};

/**
 * How long one venue market's series stays cached, per interval (seconds).
 * The interface fixes 30 s at `1m` and 1 h at `1d`; in between and beyond it
 * grows with the bucket, always increasing, and always shorter than a bucket
 * (the newest candle is the one still moving). The admin cache-policy
 * endpoint exposes this table.
 */
export const HISTORY_CACHE_TTL_SECONDS: Readonly<Record<HistoryInterval, number>> = {
  '1m': 30,
  '5m': 120,
  '1h': 600,
  '1d': 3_600,
  '1w': 21_600,
};

/** Input bounds of the history and chart fields. */
export const HISTORY_LIMITS = {
  defaultInterval: '1h' as HistoryInterval,
  /** Most buckets one request may span (per market); more is a 400. */
  maxBuckets: 5_000,
  /** Unix seconds accepted for `from`/`to` (GraphQL `Int` is 32-bit). */
  time: { min: 0, max: 2_147_483_647 },
  chartPoints: { min: 8, max: 240, default: 60 },
} as const;
