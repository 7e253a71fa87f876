/**
 * Position accounting in integer micro-units: average-cost basis, realized PnL
 * on sells (fees included), unrealized PnL against a mark.
 */
const MICRO = 1_000_000n;

export interface PositionState {
  /** Micro-contracts held (never negative: a position is long one outcome). */
  size: bigint;
  /** Total cost basis of what is held, micro-USD (fees of buys included). */
  costBasis: bigint;
  /** Realized PnL so far, micro-USD. */
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
  constructor(held: bigint, selling: bigint) {
    super(`cannot sell ${selling} micro-contracts of a position of ${held}`);
    this.name = 'OversellError';
  }
}

/** Applies a fill. Sells release cost basis pro rata and realize proceeds − released basis − fee. */
export function applyFill(p: PositionState, f: PositionFill): PositionState {
  if (f.side === 'buy') {
    return { size: p.size + f.size, costBasis: p.costBasis + f.notional + f.fee, realizedPnl: p.realizedPnl, fees: p.fees + f.fee };
  }
  if (f.size > p.size) throw new OversellError(p.size, f.size);
  // Released basis rounds half up; a full close releases all of it exactly.
  const released = f.size === p.size ? p.costBasis : (p.costBasis * f.size + p.size / 2n) / p.size;
  return {
    size: p.size - f.size,
    costBasis: p.costBasis - released,
    realizedPnl: p.realizedPnl + f.notional - f.fee - released,
    fees: p.fees + f.fee,
  };
}

/** Average entry price in micro-USD per contract (cost basis per contract), null when flat. */
export function averagePrice(p: PositionState): bigint | null {
  return p.size === 0n ? null : (p.costBasis * MICRO) / p.size;
}

/** Unrealized PnL at a mark price (micro-USD per contract). */
export function unrealizedPnl(p: PositionState, markPrice: bigint): bigint {
  return (p.size * markPrice) / MICRO - p.costBasis;
}
