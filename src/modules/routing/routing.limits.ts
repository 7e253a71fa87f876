import type { AmountRule } from '../../money';

/** Input bounds of cost preview and routing (documented in the README). */
export const ROUTING_LIMITS = {
  /** `/cost-rundown` `size`: whole contracts. */
  size: { min: 1, max: 1_000_000 },
  /** `/cost-rundown` `amount_usd`: USD to spend (buys) or receive (sells). */
  amountUsd: { min: 0, max: 10_000_000, decimals: 6 } satisfies AmountRule,
  /** `/route` `size`: contracts, at most 2 decimals (venue_b takes whole contracts only); default 1. */
  routeSize: { min: 0.01, max: 1_000_000, decimals: 2, default: 1 },
  /** Identifiers (core ids, user and account ids, market ids). */
  id: { max: 200 },
} as const;
