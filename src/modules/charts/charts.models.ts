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

/**
 * The window a history answer covers, as every view drawn on it reports it (an event's history,
 * a market's chart, the follow-trade overlay): interval, bucket width and effective range.
 */
export type HistoryWindow = Pick<HistoryRange, 'interval' | 'bucketSeconds' | 'from' | 'to'>;

/** The reported window of a validated range. */
export function historyWindow(r: HistoryRange): HistoryWindow {
  return { interval: r.interval, bucketSeconds: r.bucketSeconds, from: r.from, to: r.to };
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

export interface EventHistoryView extends HistoryWindow {
  eventId: string;
  markets: MarketHistoryView[];
  venues: VenueHistoryStatusView[];
  /** The venues that failed (their markets are left out); empty when all answered. */
  failedVenues: Venue[];
}

/** A market's chart for the detail screen: the newest `points` buckets. */
export interface MarketChartView extends HistoryWindow {
  kind: SeriesKind;
  candles: CandleRow[];
}
