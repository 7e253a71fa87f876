/** Input bounds and closed sets of the portfolio reads (the interface document's Limits, and ours). */
export const PORTFOLIO_LIMITS = {
  /** Trade history, positions and orders pages: the document caps `limit` at 200. */
  limit: { min: 1, max: 200, default: 50 },
  offset: { min: 0, max: 100_000, default: 0 },
  /** Trades shown as the overview's recent activity. */
  activity: { min: 1, max: 50, default: 10 },
  /** Path ids (position ids, venue market ids). */
  id: { max: 200 },
} as const;

/** Position statuses (the `status` filter of GET /api/positions). */
export const POSITION_STATUSES = ['open', 'closed', 'pending'] as const;
export type PositionStatus = (typeof POSITION_STATUSES)[number];

/**
 * Order states (the `state` filter of GET /api/orders): `pending` (accepted, not yet at the venue)
 * → `submitted` (at the venue or the execution service) → `filled` / `partially_filled` (the rest
 * cancelled: orders are immediate-or-cancel); or `cancelled` (nothing fillable under the limit),
 * `rejected` (refused before reaching the venue, e.g. insufficient balance, or by the venue),
 * `failed` (the venue or the execution service failed). A live venue_a order whose outcome is
 * not known yet stays `submitted` (its `failureReason` says why) until the reconciler ends it.
 * Execution writes these states; the portfolio reads and filters them.
 */
export const ORDER_STATES = [
  'pending',
  'submitted',
  'partially_filled',
  'filled',
  'cancelled',
  'rejected',
  'failed',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** Where a position or trade comes from: the service's own orders, or a linked wallet's on-chain activity. */
export const HOLDING_SOURCES = ['service', 'wallet'] as const;
export type HoldingSource = (typeof HOLDING_SOURCES)[number];

/** Where a mark came from: the venue's book now, a price remembered from earlier, or nowhere. */
export const MARK_SOURCES = ['live', 'last_known', 'none'] as const;
export type MarkSource = (typeof MARK_SOURCES)[number];

/** How long a venue mid is remembered as the last known price of its market. */
export const LAST_MARK_TTL_MS = 7 * 24 * 3600_000;
