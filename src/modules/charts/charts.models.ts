import type { Venue } from '../../venues/venue.models';
import type { CandleRow, SeriesKind } from './candles';
import type { HistoryInterval } from './charts.limits';

/** What a history request asks for; unset fields take the documented defaults. */
export interface HistoryRequest {
  interval?: string;
  from?: number;
  to?: number;
  venue?: Venue;
}

/** A validated request: the effective range and the whole buckets it covers. */
export interface HistoryRange {
  interval: HistoryInterval;
  bucketSeconds: number;
  from: number;
  to: number;
  /** Start of the first and of the last bucket of the range. */
  firstBucket: number;
  lastBucket: number;
}

/** One venue market's series. */
export interface MarketHistoryView {
  venue: Venue;
  marketId: string;
  title: string;
  /** `points` (venue_a: o = h = l = c, v null) or `ohlcv` (venue_b). */
  kind: SeriesKind;
  candles: CandleRow[];
}

/** Whether a venue answered; a failed venue's markets are missing from the response. */
export interface VenueHistoryStatusView {
  venue: Venue;
  status: 'ok' | 'failed';
  /** Markets of the event on that venue. */
  markets: number;
  error: string | null;
}

export interface EventHistoryView {
  eventId: string;
  interval: HistoryInterval;
  bucketSeconds: number;
  from: number;
  to: number;
  markets: MarketHistoryView[];
  venues: VenueHistoryStatusView[];
  /** The venues that failed (their markets are left out); empty when all answered. */
  failedVenues: Venue[];
}

/** A market's chart for the detail screen: the newest `points` buckets. */
export interface MarketChartView {
  interval: HistoryInterval;
  bucketSeconds: number;
  from: number;
  to: number;
  kind: SeriesKind;
  candles: CandleRow[];
}
