import type { PriceHistory } from '../../venues/venue.models';
import { INTERVAL_SECONDS, type HistoryInterval } from './charts.limits';

/**
 * One normalized chart row: `t` is the bucket start (unix seconds). venue_a
 * publishes points, so its rows have o = h = l = c and `v` null; venue_b rows
 * are real OHLCV.
 */
export interface CandleRow {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number | null;
}

/** Which shape the venue published: price points or OHLCV candles. */
export type SeriesKind = 'points' | 'ohlcv';

/**
 * Start of the interval bucket holding `t` (unix seconds): the x-coordinate
 * every chart row and trade bubble snaps to. Buckets start at multiples of
 * the interval since the epoch (weekly buckets start on Thursdays, 00:00 UTC,
 * as the venues bucket them).
 */
export function bucketStart(t: number, interval: HistoryInterval): number {
  const step = INTERVAL_SECONDS[interval];
  return Math.floor(t / step) * step;
}

/**
 * Snaps rows to their bucket start and merges rows that land in the same
 * bucket (open of the first, close of the last, extreme high and low, summed
 * volume; null volume only when every row lacks one). Input in any order;
 * output sorted by `t`.
 */
export function bucketize(rows: readonly CandleRow[], interval: HistoryInterval): CandleRow[] {
  const sorted = [...rows].sort((a, b) => a.t - b.t);
  const out: CandleRow[] = [];
  for (const r of sorted) {
    const t = bucketStart(r.t, interval);
    const last = out[out.length - 1];
    if (last && last.t === t) {
      last.h = Math.max(last.h, r.h);
      last.l = Math.min(last.l, r.l);
      last.c = r.c;
      last.v = last.v === null && r.v === null ? null : (last.v ?? 0) + (r.v ?? 0);
    } else {
      out.push({ t, o: r.o, h: r.h, l: r.l, c: r.c, v: r.v });
    }
  }
  return out;
}

/** A venue's history in the one row shape, snapped to `interval` buckets. */
export function normalizeHistory(
  history: PriceHistory,
  interval: HistoryInterval,
): { kind: SeriesKind; candles: CandleRow[] } {
  if (history.kind === 'points') {
    return {
      kind: 'points',
      candles: bucketize(
        history.points.map((p) => ({ t: p.t, o: p.p, h: p.p, l: p.p, c: p.p, v: null })),
        interval,
      ),
    };
  }
  return {
    kind: 'ohlcv',
    candles: bucketize(
      history.candles.map((c) => ({ t: c.t, o: c.o, h: c.h, l: c.l, c: c.c, v: c.v })),
      interval,
    ),
  };
}
