import type { BookLevel, OrderBook, OutcomeSide, Side, Venue } from '../../venues/venue.models';
import { MICROS_PER_UNIT as MICRO, microsToNumber, toMicros, mulMicros } from '../../money';

/**
 * Order-book math shared by cost preview, routing and simulated execution.
 *
 * Money is integer micro-units (1 USD = 1,000,000, see ledger/money) held in
 * bigint, prices are micro-USD per contract (0..1,000,000) and sizes are
 * micro-contracts, so no binary float ever reaches a total. Prices and sizes
 * enter from the venues as numbers and are converted once, at the edge, by
 * {@link toMicros}.
 */

/** A book level in micro-units. */
export interface MicroLevel {
  price: bigint;
  size: bigint;
}

/**
 * The levels an order consumes, best first. Buying an outcome lifts its asks,
 * selling hits its bids. The book is the YES book: a NO ask at 1 − p is a YES
 * bid at p, and a NO bid at 1 − p is a YES ask at p.
 */
export function levelsFor(book: Pick<OrderBook, 'bids' | 'asks'>, side: Side, outcome: OutcomeSide): MicroLevel[] {
  const conv = (l: BookLevel): MicroLevel => ({ price: toMicros(l.price), size: toMicros(l.size) });
  if (outcome === 'yes') return (side === 'buy' ? book.asks : book.bids).map(conv);
  const flip = (l: BookLevel): MicroLevel => ({ price: MICRO - toMicros(l.price), size: toMicros(l.size) });
  return (side === 'buy' ? book.bids : book.asks).map(flip);
}

/** What to fill: a number of contracts, or a USD amount to spend (buys) / receive (sells). */
export type FillTarget = { contracts: number } | { usd: number };

export interface LevelFill {
  price: bigint;
  size: bigint;
}

export interface BookWalk {
  fills: LevelFill[];
  /** Micro-contracts filled. */
  filled: bigint;
  /** Micro-USD exchanged before fees. */
  notional: bigint;
  /** Whether the whole target fits in the book (and under the limit price). */
  complete: boolean;
}

/** Whether a level's price is acceptable under a limit (buys: not above it; sells: not below it). */
function withinLimit(side: Side, price: bigint, limit: bigint | undefined): boolean {
  return limit === undefined || (side === 'buy' ? price <= limit : price >= limit);
}

/**
 * Walks levels best-first until the target is met, optionally stopping at a
 * limit price (buys: not above it; sells: not below it). A USD target buys the
 * most contracts it pays for; a partial level takes whole micro-contracts.
 */
export function walkBook(levels: MicroLevel[], side: Side, target: FillTarget, limitPrice?: number): BookWalk {
  const limit = limitPrice === undefined ? undefined : toMicros(limitPrice);
  const fills: LevelFill[] = [];
  let filled = 0n;
  let notional = 0n;
  const wantContracts = 'contracts' in target ? toMicros(target.contracts) : undefined;
  const wantUsd = 'usd' in target ? toMicros(target.usd) : undefined;
  // Complete unless the book (or the limit price) runs out before the target.
  let complete = false;
  for (const level of levels) {
    if (!withinLimit(side, level.price, limit)) break;
    if (level.size <= 0n || level.price <= 0n) continue;
    // Division floors: never spend more than asked.
    const room = wantContracts !== undefined ? wantContracts - filled : ((wantUsd! - notional) * MICRO) / level.price;
    const take = level.size < room ? level.size : room;
    if (take > 0n) {
      fills.push({ price: level.price, size: take });
      filled += take;
      notional += mulMicros(level.price, take);
    }
    if (take < level.size) {
      complete = true; // the target ran out inside this level
      break;
    }
  }
  if (wantContracts !== undefined && filled === wantContracts) complete = true;
  return { fills, filled, notional, complete };
}

/** Micro-contracts the book offers on a side, under an optional limit (the most any order could fill). */
export function depthOf(levels: MicroLevel[], side: Side, limitPrice?: number): bigint {
  const limit = limitPrice === undefined ? undefined : toMicros(limitPrice);
  let depth = 0n;
  for (const level of levels) {
    if (!withinLimit(side, level.price, limit)) break;
    if (level.size > 0n && level.price > 0n) depth += level.size;
  }
  return depth;
}

/** Fee parameters of each venue. */
export interface FeeSchedule {
  /** venue_a: fee = rate × contracts × (p × (1 − p))^exponent per fill, rounded up to the micro. Default zero. */
  venueA: { rate: number; exponent: number };
  /** venue_b taker: ceil to the cent of coefficient × contracts × p × (1 − p), per fill. */
  venueB: { takerCoefficient: number };
}

export const DEFAULT_FEES: FeeSchedule = { venueA: { rate: 0, exponent: 1 }, venueB: { takerCoefficient: 0.07 } };

/** One cent in micro-USD. */
export const CENT = 10_000n;

/** Integer division rounding up (non-negative operands). */
function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** (p × (1 − p))^exponent in units of 1e-12: exact for whole exponents, else through one float. */
function varianceFactor(price: bigint, exponent: number): { value: bigint; scale: bigint } {
  const pq = price * (MICRO - price); // 1e-12 units
  const scale = MICRO * MICRO;
  if (Number.isInteger(exponent) && exponent >= 0 && exponent <= 4) {
    let value = scale;
    for (let i = 0; i < exponent; i += 1) value = (value * pq) / scale;
    return { value, scale };
  }
  return { value: BigInt(Math.round(Math.pow(Number(pq) / 1e12, exponent) * 1e12)), scale };
}

/** The fee of one fill in micro-USD. */
export function feeOf(venue: Venue, fill: LevelFill, schedule: FeeSchedule = DEFAULT_FEES): bigint {
  if (fill.size <= 0n) return 0n;
  if (venue === 'venue_b') {
    // coefficient (ppm) × C × p × (1 − p): exact, rounded up to the micro, then to the cent.
    const coeff = toMicros(schedule.venueB.takerCoefficient);
    const micros = ceilDiv(coeff * fill.size * fill.price * (MICRO - fill.price), MICRO * MICRO * MICRO);
    return ceilDiv(micros, CENT) * CENT;
  }
  const { rate, exponent } = schedule.venueA;
  if (rate === 0) return 0n;
  const f = varianceFactor(fill.price, exponent);
  return ceilDiv(toMicros(rate) * fill.size * f.value, MICRO * f.scale);
}

/** Fees in micro-USD for a walk's fills on a venue (the sum of {@link feeOf}). */
export function feesFor(venue: Venue, fills: LevelFill[], schedule: FeeSchedule = DEFAULT_FEES): bigint {
  return fills.reduce((sum, f) => sum + feeOf(venue, f, schedule), 0n);
}

/** Mid of an outcome's book (NO mid = 1 − YES mid). */
export function midOf(book: Pick<OrderBook, 'bids' | 'asks'>, outcome: OutcomeSide): bigint | null {
  const bid = book.bids[0];
  const ask = book.asks[0];
  if (!bid || !ask) return null;
  const yesMid = (toMicros(bid.price) + toMicros(ask.price)) / 2n;
  return outcome === 'yes' ? yesMid : MICRO - yesMid;
}

/** A priced walk in micro-units: what execution records and the views convert. */
export interface BookQuote extends BookWalk {
  venue: Venue;
  side: Side;
  outcome: OutcomeSide;
  /** Fee of each fill, in fill order. */
  fillFees: bigint[];
  fees: bigint;
  /** Buys: notional + fees (paid). Sells: notional − fees (received). */
  allIn: bigint;
  /** Volume-weighted average price (floor), null when nothing fills. */
  avgPrice: bigint | null;
  worstPrice: bigint | null;
  mid: bigint | null;
  /** Micro-contracts on the side, under the limit: the most any size could fill. */
  depth: bigint;
}

/** What a buy pays (notional + fees) or a sell receives (notional − fees), micro-USD. */
export function allInOf(side: Side, notional: bigint, fees: bigint): bigint {
  return side === 'buy' ? notional + fees : notional - fees;
}

/** Prices an order (market, or a limit order's marketable part) against a venue's book, in micro-units. */
export function priceBook(
  venue: Venue,
  book: Pick<OrderBook, 'bids' | 'asks'>,
  side: Side,
  outcome: OutcomeSide,
  target: FillTarget,
  opts: { limitPrice?: number; fees?: FeeSchedule } = {},
): BookQuote {
  const levels = levelsFor(book, side, outcome);
  const walk = walkBook(levels, side, target, opts.limitPrice);
  const fillFees = walk.fills.map((f) => feeOf(venue, f, opts.fees));
  const fees = fillFees.reduce((a, b) => a + b, 0n);
  return {
    ...walk,
    venue,
    side,
    outcome,
    fillFees,
    fees,
    allIn: allInOf(side, walk.notional, fees),
    avgPrice: walk.filled > 0n ? (walk.notional * MICRO) / walk.filled : null,
    worstPrice: walk.fills.length > 0 ? walk.fills[walk.fills.length - 1].price : null,
    mid: midOf(book, outcome),
    depth: depthOf(levels, side, opts.limitPrice),
  };
}

/** A priced walk as the API shows it: USD and prices as numbers, sizes in contracts. */
export interface Quote {
  venue: Venue;
  side: Side;
  outcome: OutcomeSide;
  /** Contracts filled (may be below the target when the book is thin). */
  contracts: number;
  /** Contracts the book offers on this side (under the limit): the fillable size. */
  fillableContracts: number;
  complete: boolean;
  avgPrice: number | null;
  worstPrice: number | null;
  /** Mid of the traded outcome's book, when both sides quote. */
  mid: number | null;
  /** avgPrice − mid for buys, mid − avgPrice for sells (what the walk costs against mid). */
  slippage: number | null;
  slippageBps: number | null;
  notionalUsd: number;
  feesUsd: number;
  /** Buys: notional + fees (paid). Sells: notional − fees (received). */
  allInUsd: number;
  /** All-in price per contract. */
  allInPrice: number | null;
}

/** Converts a micro-unit quote for JSON. */
export function toQuote(q: BookQuote): Quote {
  const slip =
    q.avgPrice !== null && q.mid !== null ? (q.side === 'buy' ? q.avgPrice - q.mid : q.mid - q.avgPrice) : null;
  return {
    venue: q.venue,
    side: q.side,
    outcome: q.outcome,
    contracts: microsToNumber(q.filled),
    fillableContracts: microsToNumber(q.depth),
    complete: q.complete,
    avgPrice: q.avgPrice === null ? null : microsToNumber(q.avgPrice),
    worstPrice: q.worstPrice === null ? null : microsToNumber(q.worstPrice),
    mid: q.mid === null ? null : microsToNumber(q.mid),
    slippage: slip === null ? null : microsToNumber(slip),
    slippageBps: slip === null || q.mid === null || q.mid === 0n ? null : Number((slip * 10_000n) / q.mid),
    notionalUsd: microsToNumber(q.notional),
    feesUsd: microsToNumber(q.fees),
    allInUsd: microsToNumber(q.allIn),
    allInPrice: q.filled > 0n ? microsToNumber((q.allIn * MICRO) / q.filled) : null,
  };
}

/** Prices an order against a venue's book, for JSON (see {@link priceBook}). */
export function quote(...order: Parameters<typeof priceBook>): Quote {
  return toQuote(priceBook(...order));
}
