import { MICROS_PER_UNIT } from '../../../money/money';
import type { ExecutionMode } from '../../execution/execution.limits';

/** Input bounds of `POST /api/social/copytrade` (documented in the README). */
export const COPYTRADE_LIMITS = {
  /** Contracts to copy (venue precision is checked by execution: venue_b whole contracts, venue_a two decimals). */
  size: { min: 0.01, max: 1_000_000 },
  /** USD to spend (buys) or receive (sells) instead of a size; converted at the current best price. */
  amountUsd: { min: 0.01, max: 1_000_000 },
  /** Absolute price difference (USD per contract) the caller tolerates; never above the configured cap. */
  maxPriceDeviation: { min: 0, max: 1 },
  traderId: { max: 100 },
  tradeId: { max: 200 },
} as const;

/**
 * Risk caps every copy must satisfy (config: COPYTRADE_*). A violation is a
 * 400 naming the cap (`maxTradeUsd`, `maxDailyUsd`, `maxOpenPositions`,
 * `category`, `maxPriceDeviation`).
 */
export interface CopytradeCaps {
  /** USD notional of one copy at the current book (micro-USD). */
  maxTradeMicros: bigint;
  /** USD notional of the caller's copies since 00:00 UTC, this one included (micro-USD). */
  maxDailyMicros: bigint;
  /** Open positions the caller may hold when a copy would open a new one. */
  maxOpenPositions: number;
  /** Event categories a copy may trade in (empty: all). Compared case-insensitively. */
  allowedCategories: readonly string[];
  /** Event categories a copy may never trade in. */
  blockedCategories: readonly string[];
  /** Largest |current best price − trader's fill price| (micro-USD per contract). */
  maxDeviationMicros: bigint;
}

/** A copy request as both surfaces take it. */
export interface CopytradeRequest {
  venue: 'venue_a' | 'venue_b';
  traderId: string;
  /** The trade as the trader pages list it (`venue:venueTradeId`), or the venue's trade id. */
  tradeId: string;
  size?: number;
  amountUsd?: number;
  mode?: ExecutionMode;
  maxPriceDeviation?: number;
}

/** 00:00 UTC of the day `ms` falls in: the start of the per-day cap's window. */
export function utcMidnight(ms: number): Date {
  const d = new Date(ms);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

/** |a − b| in micro-units. */
export function deviation(a: bigint, b: bigint): bigint {
  return a > b ? a - b : b - a;
}

/**
 * The limit price a copy is sent with: the trader's fill price moved by the
 * tolerated deviation against the caller (buys: up, sells: down), within 0..1.
 * The order then never fills further from the trader's price than the cap.
 */
export function copyLimitMicros(side: 'buy' | 'sell', traderPrice: bigint, allowed: bigint): bigint {
  const p = side === 'buy' ? traderPrice + allowed : traderPrice - allowed;
  return p < 0n ? 0n : p > MICROS_PER_UNIT ? MICROS_PER_UNIT : p;
}
