import { MICROS_PER_UNIT as MICRO } from '../../money';
import { OutcomeSide } from '../../venues/venue.models';
import { MICROS_PER_UNIT } from '../../money/money';

/**
 * Position accounting in integer micro-units, average-cost basis.
 *
 * - The cost basis is what the contracts still held cost at their fill prices,
 *   fees excluded, so the average price is the volume-weighted entry price a
 *   trader sees on the venue (`Position.costBasisMicros`).
 * - Fees are realized when paid: a buy's fee lowers realized PnL at once, a
 *   sell realizes proceeds − released basis − its fee. So realized +
 *   unrealized PnL is exactly the money out and in plus the holding at mark,
 *   with every fee counted once.
 * - A sell releases basis pro rata (rounded half up); a full close releases
 *   all of it, so a flat position carries no basis.
 */
export interface PositionState {
  /** Micro-contracts held (never negative: a position is long one outcome). */
  size: bigint;
  /** Cost of what is held at its fill prices, micro-USD, fees excluded. */
  costBasis: bigint;
  /** Realized PnL so far, micro-USD, net of every fee paid. */
  realizedPnl: bigint;
  /** Fees paid so far, micro-USD. */
  fees: bigint;
}

export const EMPTY_POSITION: PositionState = { size: 0n, costBasis: 0n, realizedPnl: 0n, fees: 0n };

export interface PositionFill {
  side: 'buy' | 'sell';
  /** Micro-contracts. */
  size: bigint;
  /** Micro-USD exchanged before fees. */
  notional: bigint;
  /** Micro-USD. */
  fee: bigint;
}

export class OversellError extends Error {
  constructor(
    readonly held: bigint,
    readonly selling: bigint,
  ) {
    super(`cannot sell ${selling} micro-contracts of a position of ${held}`);
    this.name = 'OversellError';
  }
}

/** Applies a fill (see the module comment for the rules). */
export function applyFill(p: PositionState, f: PositionFill): PositionState {
  if (f.side === 'buy') {
    return {
      size: p.size + f.size,
      costBasis: p.costBasis + f.notional,
      realizedPnl: p.realizedPnl - f.fee,
      fees: p.fees + f.fee,
    };
  }
  if (f.size > p.size) throw new OversellError(p.size, f.size);
  const released = f.size === p.size ? p.costBasis : (p.costBasis * f.size + p.size / 2n) / p.size;
  return {
    size: p.size - f.size,
    costBasis: p.costBasis - released,
    realizedPnl: p.realizedPnl + f.notional - f.fee - released,
    fees: p.fees + f.fee,
  };
}

/** Applies fills in order. */
export function applyFills(p: PositionState, fills: readonly PositionFill[]): PositionState {
  return fills.reduce(applyFill, p);
}

/** Average entry price in micro-USD per contract (fees excluded, rounded down), null when flat. */
export function averagePrice(p: PositionState): bigint | null {
  return p.size === 0n ? null : (p.costBasis * MICRO) / p.size;
}

/** Value of the holding at a mark price (micro-USD per contract), rounded half up. */
export function markValue(p: PositionState, markPrice: bigint): bigint {
  return (p.size * markPrice + MICRO / 2n) / MICRO;
}

/** Unrealized PnL at a mark price (micro-USD per contract): value at mark − cost basis. */
export function unrealizedPnl(p: PositionState, markPrice: bigint): bigint {
  return markValue(p, markPrice) - p.costBasis;
}

/** The mark of an outcome from the market's YES mark: a NO contract is worth 1 − YES. */
export function outcomeMark(yes: bigint, outcome: OutcomeSide): bigint {
  return outcome === 'yes' ? yes : MICROS_PER_UNIT - yes;
}
