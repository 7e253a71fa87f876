import type { BookLevel, OrderBook, OutcomeSide, Side, Venue } from '../../venues/venue.types';

/**
 * Order-book math shared by cost preview, routing and simulated execution.
 *
 * Money is integer micro-units (1 USD = 1,000,000) held in bigint, prices are
 * micro-units per contract (0..1,000,000) and sizes are micro-contracts, so no
 * binary float ever reaches a total. Prices and sizes enter from the venues as
 * numbers and are converted once, at the edge, by {@link toMicros}.
 */
export const MICRO = 1_000_000n;

export function toMicros(value: number): bigint {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  return BigInt(Math.round(value * 1e6));
}

export function fromMicros(value: bigint): number {
  return Number(value) / 1e6;
}

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

/** Multiplies micro-price by micro-size into micro-USD, rounding half up. */
export function notionalOf(price: bigint, size: bigint): bigint {
  return (price * size + MICRO / 2n) / MICRO;
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
    if (limit !== undefined && (side === 'buy' ? level.price > limit : level.price < limit)) break;
    if (level.size <= 0n || level.price <= 0n) continue;
    const room =
      wantContracts !== undefined
        ? wantContracts - filled
        : ((wantUsd! - notional) * MICRO) / level.price; // floor: never spend more than asked
    const take = level.size < room ? level.size : room;
    if (take > 0n) {
      fills.push({ price: level.price, size: take });
      filled += take;
      notional += notionalOf(level.price, take);
    }
    if (take < level.size) {
      complete = true; // the target ran out inside this level
      break;
    }
  }
  if (wantContracts !== undefined && filled === wantContracts) complete = true;
  return { fills, filled, notional, complete };
}

/** Fee parameters of each venue. */
export interface FeeSchedule {
  /** venue_a: fee = rate × contracts × (p × (1 − p))^exponent per fill. Default zero. */
  venueA: { rate: number; exponent: number };
  /** venue_b taker: ceil to the cent of coefficient × contracts × p × (1 − p), per fill. */
  venueB: { takerCoefficient: number };
}

export const DEFAULT_FEES: FeeSchedule = { venueA: { rate: 0, exponent: 1 }, venueB: { takerCoefficient: 0.07 } };

const CENT = 10_000n;

/** Fees in micro-USD for a walk's fills on a venue. */
export function feesFor(venue: Venue, fills: LevelFill[], schedule: FeeSchedule = DEFAULT_FEES): bigint {
  let total = 0n;
  for (const f of fills) {
    if (venue === 'venue_b') {
      // coefficient × C × p × (1 − p) in micro-USD, exact with the coefficient in ppm.
      const coeff = toMicros(schedule.venueB.takerCoefficient);
      const raw = (coeff * f.size * f.price * (MICRO - f.price)) / (MICRO * MICRO * MICRO);
      const rem = (coeff * f.size * f.price * (MICRO - f.price)) % (MICRO * MICRO * MICRO);
      const micros = raw + (rem > 0n ? 1n : 0n);
      total += ((micros + CENT - 1n) / CENT) * CENT;
    } else {
      const { rate, exponent } = schedule.venueA;
      if (rate === 0) continue;
      const p = Number(f.price) / 1e6;
      const perContract = rate * Math.pow(p * (1 - p), exponent);
      total += (f.size * toMicros(perContract) + MICRO - 1n) / MICRO;
    }
  }
  return total;
}

export interface Quote {
  venue: Venue;
  side: Side;
  outcome: OutcomeSide;
  /** Contracts filled (may be below the target when the book is thin). */
  contracts: number;
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

/** Mid of an outcome's book (NO mid = 1 − YES mid). */
export function midOf(book: Pick<OrderBook, 'bids' | 'asks'>, outcome: OutcomeSide): bigint | null {
  const bid = book.bids[0];
  const ask = book.asks[0];
  if (!bid || !ask) return null;
  const yesMid = (toMicros(bid.price) + toMicros(ask.price)) / 2n;
  return outcome === 'yes' ? yesMid : MICRO - yesMid;
}

/** Prices a market order (or a limit order's fillable part) against a venue's book. */
export function quote(
  venue: Venue,
  book: Pick<OrderBook, 'bids' | 'asks'>,
  side: Side,
  outcome: OutcomeSide,
  target: FillTarget,
  opts: { limitPrice?: number; fees?: FeeSchedule } = {},
): Quote {
  const walk = walkBook(levelsFor(book, side, outcome), side, target, opts.limitPrice);
  const fees = feesFor(venue, walk.fills, opts.fees);
  const mid = midOf(book, outcome);
  const avg = walk.filled > 0n ? (walk.notional * MICRO) / walk.filled : null;
  const worst = walk.fills.length > 0 ? walk.fills[walk.fills.length - 1]!.price : null;
  const allIn = side === 'buy' ? walk.notional + fees : walk.notional - fees;
  const slip = avg !== null && mid !== null ? (side === 'buy' ? avg - mid : mid - avg) : null;
  return {
    venue,
    side,
    outcome,
    contracts: fromMicros(walk.filled),
    complete: walk.complete,
    avgPrice: avg === null ? null : fromMicros(avg),
    worstPrice: worst === null ? null : fromMicros(worst),
    mid: mid === null ? null : fromMicros(mid),
    slippage: slip === null ? null : fromMicros(slip),
    slippageBps: slip === null || mid === null || mid === 0n ? null : Number((slip * 10_000n) / mid),
    notionalUsd: fromMicros(walk.notional),
    feesUsd: fromMicros(fees),
    allInUsd: fromMicros(allIn),
    allInPrice: walk.filled > 0n ? fromMicros((allIn * MICRO) / walk.filled) : null,
  };
}
