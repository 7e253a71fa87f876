import type { BookLevel } from '../venue.models';
import { hashInts, toUnit } from './prng';
import type { SimMarket } from './sim-catalog';
import { priceAt, roundToTick } from './sim-price';

// Module-local aliases: global lookups are very slow inside vm contexts (jest),
// and these functions run millions of times per series or listing.
const { exp, floor, max, min, round } = Math;

/** Books are redrawn every this many seconds; within a bucket they are identical. */
export const BOOK_BUCKET_S = 15;

/** The YES outcome's book: bids best (highest) first, asks best (lowest) first. */
export interface YesBook {
  bids: BookLevel[];
  asks: BookLevel[];
}

/** venue_b's native shape: resting bids on YES and on NO, each best (highest) first. */
export interface NativeBinaryBook {
  yesBids: BookLevel[];
  noBids: BookLevel[];
}

const SIDE_BID = 1;
const SIDE_ASK = 2;

/**
 * Turns NO bids into YES asks: buying NO at q is the same trade as selling YES
 * at 1 − q. The best NO bid (highest q) becomes the best YES ask (lowest price),
 * so the result is ordered ascending by price.
 */
export function noBidsToYesAsks(noBids: readonly BookLevel[], tick = 0.01): BookLevel[] {
  return noBids.map((l) => ({ price: roundToTick(1 - l.price, tick), size: l.size })).sort((x, y) => x.price - y.price);
}

interface Inside {
  /** Best YES bid and best YES ask, in ticks. */
  bidT: number;
  askT: number;
  levels: number;
  ticks: number;
}

function inside(m: SimMarket, t: number, bucket: number): Inside {
  const ticks = round(1 / m.tick);
  const midT = priceAt(m.process, t) * ticks;
  const u = toUnit(hashInts(m.seed, bucket, 7));
  const spread = m.venue === 'venue_a' ? 2 + floor(u * 10) : 1 + floor(u * 2.6);
  let bidT = max(1, floor(midT - spread / 2));
  let askT = bidT + spread;
  if (askT > ticks - 1) {
    askT = ticks - 1;
    bidT = max(1, min(bidT, askT - 1));
  }
  return { bidT, askT, levels: 10 + (m.seed % 11), ticks };
}

/** Price levels walking away from `startT` (dir −1 = down), sizes growing with distance. */
function ladder(
  m: SimMarket,
  ticks: number,
  startT: number,
  dir: 1 | -1,
  count: number,
  bucket: number,
  side: number,
): BookLevel[] {
  const out: BookLevel[] = [];
  let priceT = startT;
  for (let i = 0; i < count && priceT >= 1 && priceT <= ticks - 1; i++) {
    const h = hashInts(m.seed, bucket, side * 1000 + i, 11);
    const u1 = toUnit(h);
    const u2 = toUnit(hashInts(h, 3));
    const raw = m.meanSize * (1.5 + 3 * u1) * (1 + 0.25 * i) * exp((u2 - 0.5) * 1.2);
    const size = m.venue === 'venue_b' ? max(1, round(raw)) : max(1, round(raw * 100) / 100);
    out.push({ price: priceT / ticks, size });
    const gap = m.venue === 'venue_a' ? 1 + floor(toUnit(hashInts(h, 5)) * 4) : toUnit(hashInts(h, 5)) < 0.75 ? 1 : 2;
    priceT += dir * gap;
  }
  return out;
}

function bucketOf(t: number): number {
  return floor(t / BOOK_BUCKET_S);
}

function isTrading(m: SimMarket, t: number): boolean {
  return m.status === 'active' && t >= m.listedAt && t < m.tradingEnd;
}

/**
 * venue_b's book as the venue itself keeps it: YES bids below the mid and NO
 * bids below 1 − mid. Empty once the market stops trading.
 */
export function nativeBinaryBookAt(m: SimMarket, t: number): NativeBinaryBook {
  if (!isTrading(m, t)) return { yesBids: [], noBids: [] };
  const bucket = bucketOf(t);
  const q = inside(m, t, bucket);
  return {
    yesBids: ladder(m, q.ticks, q.bidT, -1, q.levels, bucket, SIDE_BID),
    noBids: ladder(m, q.ticks, q.ticks - q.askT, -1, q.levels, bucket, SIDE_ASK),
  };
}

/** The YES book of any market at `t` (unix seconds); deterministic per 15-second bucket. */
export function yesBookAt(m: SimMarket, t: number): YesBook {
  if (m.venue === 'venue_b') {
    const native = nativeBinaryBookAt(m, t);
    return { bids: native.yesBids, asks: noBidsToYesAsks(native.noBids, m.tick) };
  }
  if (!isTrading(m, t)) return { bids: [], asks: [] };
  const bucket = bucketOf(t);
  const q = inside(m, t, bucket);
  return {
    bids: ladder(m, q.ticks, q.bidT, -1, q.levels, bucket, SIDE_BID),
    asks: ladder(m, q.ticks, q.askT, 1, q.levels, bucket, SIDE_ASK),
  };
}

/** Σ price × size over both sides, in dollars: a simple resting-liquidity figure. */
export function bookLiquidity(book: YesBook): number {
  let sum = 0;
  for (const l of [...book.bids, ...book.asks]) sum += l.price * l.size;
  return round(sum * 100) / 100;
}
