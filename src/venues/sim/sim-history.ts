import type { Candle, HistoryInterval, PriceHistory, PriceHistoryQuery, PricePoint } from '../venue.models';
import type { SimMarket } from './sim-catalog';
import { PRICE_STEP_S, priceAt, roundToTick } from './sim-price';
import { volumeRate } from './sim-trades';

// Module-local aliases: global lookups are very slow inside vm contexts (jest),
// and these functions run millions of times per series or listing.
const { floor, max, min, round } = Math;

/** Bucket length of each interval in seconds; buckets start at multiples of it since the epoch. */
export const INTERVAL_SECONDS: Readonly<Record<HistoryInterval, number>> = {
  '1m': 60,
  '5m': 300,
  '1h': 3_600,
  '1d': 86_400,
  '1w': 604_800,
};

/** Most buckets one call returns; longer ranges keep the newest buckets. */
export const MAX_HISTORY_POINTS = 5_000;

/** Price samples per candle used for high/low (plus open and close, which are exact). */
const SAMPLES_PER_CANDLE = 12;

interface Span {
  step: number;
  first: number;
  last: number;
  lo: number;
  hi: number;
}

/** Clips the query to the market's life and `nowSec`, then aligns it to buckets. */
function span(m: SimMarket, q: PriceHistoryQuery, nowSec: number): Span | null {
  const step = INTERVAL_SECONDS[q.interval];
  if (step === undefined) throw new RangeError(`unknown history interval ${String(q.interval)}`);
  if (!Number.isFinite(q.from) || !Number.isFinite(q.to))
    throw new RangeError('history range must be finite unix seconds');
  const lo = max(q.from, m.listedAt);
  const hi = min(q.to, nowSec, m.tradingEnd - 1);
  if (hi < lo) return null;
  const last = floor(hi / step) * step;
  const first = max(floor(lo / step) * step, last - (MAX_HISTORY_POINTS - 1) * step);
  return { step, first, last, lo, hi };
}

/**
 * venue_a-style history: the YES price at each bucket start (or at listing,
 * for a bucket that straddles it), on venue_a's 0.001 grid.
 */
export function pricePoints(m: SimMarket, q: PriceHistoryQuery, nowSec: number): PriceHistory {
  const s = span(m, q, nowSec);
  const points: PricePoint[] = [];
  if (s) {
    for (let t = s.first; t <= s.last; t += s.step)
      points.push({ t, p: roundToTick(priceAt(m.process, max(t, s.lo)), m.tick) });
  }
  return { kind: 'points', points };
}

/**
 * venue_b-style history: OHLCV per bucket. Open and close are the exact
 * prices at the first and last 15-second step of the bucket, so a coarse
 * candle's open/close equal those of its first/last fine candles; high and low
 * come from a fixed number of samples, so they can be slightly inside the
 * true range of the finer candles. Volume is the expected traded size.
 */
export function ohlcvCandles(m: SimMarket, q: PriceHistoryQuery, nowSec: number): PriceHistory {
  const s = span(m, q, nowSec);
  const candles: Candle[] = [];
  if (s) {
    const sub = max(PRICE_STEP_S, round(s.step / SAMPLES_PER_CANDLE / PRICE_STEP_S) * PRICE_STEP_S);
    for (let t = s.first; t <= s.last; t += s.step) {
      const start = max(t, s.lo);
      const end = max(start, min(t + s.step - PRICE_STEP_S, s.hi));
      const o = priceAt(m.process, start);
      const c = priceAt(m.process, end);
      let h = max(o, c);
      let l = min(o, c);
      let v = 0;
      for (let x = start; x <= end; x += sub) {
        const p = priceAt(m.process, x);
        if (p > h) h = p;
        if (p < l) l = p;
        v += volumeRate(m, x) * min(sub, end + PRICE_STEP_S - x);
      }
      const r = (p: number) => roundToTick(p, m.tick);
      candles.push({
        t,
        o: r(o),
        h: r(h),
        l: r(l),
        c: r(c),
        v: m.venue === 'venue_b' ? round(v) : round(v * 100) / 100,
      });
    }
  }
  return { kind: 'ohlcv', candles };
}
