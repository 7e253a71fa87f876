import { AppError } from '../../errors/app-error';
import type { Cache } from '../../infra';
import type { Venue } from '../../venues/venue.models';
import type { VenueClient } from '../../venues/venue-client';
import { VENUES } from '../../venues/venue.models';
import type { MarketView } from '../events/events.models';
import { fromVenueError } from '../markets/venue-errors';
import { bucketStart, normalizeHistory, type CandleRow, type SeriesKind } from './candles';
import {
  HISTORY_CACHE_TTL_SECONDS,
  HISTORY_INTERVALS,
  HISTORY_LIMITS,
  HISTORY_LOOKBACK_SECONDS,
  INTERVAL_SECONDS,
  type HistoryInterval,
} from './charts.limits';
import {
  historyWindow,
  type EventHistoryView,
  type HistoryRange,
  type HistoryRequest,
  type MarketChartView,
  type MarketHistoryView,
  type VenueHistoryStatusView,
} from './charts.models';

export interface HistoryServiceOptions {
  /** Clock in ms (tests pin it). */
  now?: () => number;
  /** Told about each venue failure (the app logs them). */
  onVenueError?: (venue: Venue, err: unknown) => void;
}

/** A series as cached: JSON-safe, one per venue market, interval and bucket range. */
interface CachedSeries {
  kind: SeriesKind;
  candles: CandleRow[];
}

function isInterval(value: string): value is HistoryInterval {
  return (HISTORY_INTERVALS as readonly string[]).includes(value);
}

/**
 * Price history of events and markets from the venues, normalized to one
 * candle shape, snapped to bucket starts and cached per venue market,
 * interval and bucket range with {@link HISTORY_CACHE_TTL_SECONDS}.
 */
export class HistoryService {
  private readonly now: () => number;

  constructor(
    private readonly venues: Readonly<Record<Venue, VenueClient>>,
    private readonly cache: Cache,
    private readonly opts: HistoryServiceOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
  }

  /**
   * Validates a request and fills in the defaults (`1h`, now minus the
   * interval's lookback, now). The range is widened to whole buckets: the
   * first and last rows cover their whole bucket. 400s name the field.
   */
  range(req: HistoryRequest): HistoryRange {
    const interval = req.interval ?? HISTORY_LIMITS.defaultInterval;
    if (!isInterval(interval)) throw AppError.badRequest('interval', `must be one of ${HISTORY_INTERVALS.join(', ')}`);
    const { min, max } = HISTORY_LIMITS.time;
    for (const field of ['from', 'to'] as const) {
      const v = req[field];
      if (v !== undefined && (!Number.isInteger(v) || v < min || v > max)) {
        throw AppError.badRequest(field, `must be an integer from ${min} to ${max} (unix seconds)`);
      }
    }
    const step = INTERVAL_SECONDS[interval];
    const to = req.to ?? Math.floor(this.now() / 1000);
    const from = req.from ?? Math.max(min, to - HISTORY_LOOKBACK_SECONDS[interval]);
    if (from > to) throw AppError.badRequest('from', 'must not be after to');
    const firstBucket = bucketStart(from, interval);
    const lastBucket = bucketStart(to, interval);
    const buckets = (lastBucket - firstBucket) / step + 1;
    if (buckets > HISTORY_LIMITS.maxBuckets) {
      throw AppError.badRequest(
        'from',
        `the range spans ${buckets} ${interval} buckets; at most ${HISTORY_LIMITS.maxBuckets} (narrow from/to or ` +
          `use a longer interval)`,
      );
    }
    return { interval, bucketSeconds: step, from, to, firstBucket, lastBucket };
  }

  /**
   * One core event's history: every market (optionally of one venue), each
   * venue queried in parallel. A venue that fails is reported and left out;
   * when every venue with markets fails the request is a 503.
   */
  async eventHistory(eventId: string, markets: readonly MarketView[], req: HistoryRequest): Promise<EventHistoryView> {
    const range = this.range(req);
    const wanted = markets.filter((m) => req.venue === undefined || m.venue === req.venue);
    const venues = VENUES.filter((v) => wanted.some((m) => m.venue === v));
    const settled = await Promise.allSettled(
      venues.map((v) => Promise.all(wanted.filter((m) => m.venue === v).map((m) => this.marketHistory(m, range)))),
    );
    const statuses: VenueHistoryStatusView[] = [];
    const series: MarketHistoryView[] = [];
    settled.forEach((r, i) => {
      const venue = venues[i];
      const count = wanted.filter((m) => m.venue === venue).length;
      if (r.status === 'fulfilled') {
        series.push(...r.value);
        statuses.push({ venue, status: 'ok', markets: count, error: null });
      } else {
        this.opts.onVenueError?.(venue, r.reason);
        statuses.push({ venue, status: 'failed', markets: count, error: fromVenueError(r.reason).message });
      }
    });
    const failedVenues = statuses.filter((s) => s.status === 'failed').map((s) => s.venue);
    if (venues.length > 0 && failedVenues.length === venues.length) {
      throw AppError.unavailable(
        `history: no venue answered (${statuses.map((s) => `${s.venue}: ${s.error}`).join('; ')})`,
      );
    }
    return {
      eventId,
      ...historyWindow(range),
      markets: series,
      venues: statuses,
      failedVenues,
    };
  }

  /**
   * The detail screen's chart: the newest `points` buckets of `interval`,
   * ending now, or at the market's end date once it has closed.
   */
  async marketChart(market: MarketView, points: number, interval: string): Promise<MarketChartView> {
    if (!isInterval(interval)) throw AppError.badRequest('interval', `must be one of ${HISTORY_INTERVALS.join(', ')}`);
    const { min, max } = HISTORY_LIMITS.chartPoints;
    if (!Number.isInteger(points) || points < min || points > max)
      throw AppError.badRequest('points', `must be an integer from ${min} to ${max}`);
    const step = INTERVAL_SECONDS[interval];
    const nowSec = Math.floor(this.now() / 1000);
    const end = market.endDate ? Math.min(nowSec, Math.floor(market.endDate.getTime() / 1000) - 1) : nowSec;
    const lastBucket = bucketStart(end, interval);
    const firstBucket = Math.max(0, lastBucket - (points - 1) * step);
    const range: HistoryRange = { interval, bucketSeconds: step, from: firstBucket, to: end, firstBucket, lastBucket };
    try {
      const s = await this.series(market.venue, market.marketId, range);
      return { ...historyWindow(range), kind: s.kind, candles: s.candles };
    } catch (err) {
      throw fromVenueError(err);
    }
  }

  private async marketHistory(m: MarketView, range: HistoryRange): Promise<MarketHistoryView> {
    const s = await this.series(m.venue, m.marketId, range);
    return { venue: m.venue, marketId: m.marketId, title: m.title, kind: s.kind, candles: s.candles };
  }

  /**
   * One venue market's series over whole buckets, through the cache. The
   * venue is asked up to the end of the last bucket (it stops at its own now),
   * so an entry depends only on its key and on when it was filled, which the
   * TTL bounds. A failed call rejects and is not cached.
   */
  private async series(venue: Venue, marketId: string, range: HistoryRange): Promise<CachedSeries> {
    const key = `history:v1:${venue}:${marketId}:${range.interval}:${range.firstBucket}:${range.lastBucket}`;
    const ttlMs = HISTORY_CACHE_TTL_SECONDS[range.interval] * 1000;
    const { value } = await this.cache.wrap<CachedSeries>(key, ttlMs, async () => {
      const history = await this.venues[venue].getPriceHistory(marketId, {
        interval: range.interval,
        from: range.firstBucket,
        to: range.lastBucket + range.bucketSeconds - 1,
      });
      return normalizeHistory(history, range.interval);
    });
    return value;
  }
}
