import { MARKETS_LIMITS } from '../markets/markets.limits';

/** Input bounds of the market streams (GraphQL `marketUpdates`; REST `/stream/markets`). */
export const MARKET_STREAM_LIMITS = {
  /** Markets one stream (one connection, one subscription) follows at most. */
  markets: { min: 1, max: 20 },
  /** Levels per side: `orderBooks`' bound. */
  depth: MARKETS_LIMITS.bookDepth,
  marketId: MARKETS_LIMITS.marketId,
} as const;
