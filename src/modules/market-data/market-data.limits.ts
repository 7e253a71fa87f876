/** Bounds of the market-data lists (the interface document's Limits section). */
export const MARKET_DATA_LIMITS = {
  limit: { min: 1, max: 200, default: 50 },
  cursor: { max: 1000 },
  category: { max: 64 },
  minVolume: { min: 0, max: 1e15 },
  marketId: { max: 200 },
} as const;

/** The `status` filter's values: the venue contract's market statuses. */
export { MARKET_STATUSES } from '../../venues/venue.models';
