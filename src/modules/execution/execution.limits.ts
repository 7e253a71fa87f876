import type { Venue } from '../../venues/venue.models';

/** Input bounds of execution (documented in the README). */
export const EXECUTION_LIMITS = {
  /** Contracts per order. */
  size: { min: 0, max: 1_000_000 },
  /** A limit price: USD per contract, which pays 1 if it wins. */
  limitPrice: { min: 0, max: 1 },
  /** Decimals a size may have on each venue (venue_b trades whole contracts). */
  sizeDecimals: { venue_a: 2, venue_b: 0 } satisfies Record<Venue, number>,
  /** Free-text and id fields. */
  text: { max: 200 },
  /** `fundingAmountAtomic`: a non-negative integer in the funding currency's atomic units (uint256). */
  atomicDigits: { max: 78 },
} as const;

export const ORDER_TYPES = ['market', 'limit'] as const;
export type OrderKind = (typeof ORDER_TYPES)[number];

export const EXECUTION_MODES = ['simulation', 'live'] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

// An order's states are the portfolio's `ORDER_STATES` (its read side lists and filters orders);
// a funding source's chain is one of the wallets' `CHAINS`.

/**
 * The stream's event names, in the order they come. The last is one of
 * `completed`, `failed` or `outcome_unknown`: a live order whose outcome is not
 * known (venue_a: the execution service has not reported it in time, or could
 * not be asked; venue_b: the venue may have taken it but its answer was lost)
 * stays `submitted` with its hold, and the reconciler settles or fails it later.
 */
export const EXECUTION_EVENTS = [
  'accepted',
  'quote',
  'submitted',
  'fill',
  'completed',
  'failed',
  'outcome_unknown',
] as const;
export type ExecutionEventKind = (typeof EXECUTION_EVENTS)[number];

/** The events that end an execution's stream: nothing follows one. */
export const TERMINAL_EVENTS: ReadonlySet<ExecutionEventKind> = new Set(['completed', 'failed', 'outcome_unknown']);

/** Why an execution failed (`failed` events carry one), or why its outcome is not known (`outcome_unknown`). */
export const FAILURE_CODES = [
  'nothing_to_execute',
  'insufficient_funds',
  'insufficient_position',
  'venue_unavailable',
  'venue_rejected',
  'upstream_error',
  'timeout',
  'internal',
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/** Where an order came from. */
export type OrderSource = 'execute' | 'position_sell' | 'copytrade';

/** Reconciling live orders whose outcome is not known. */
export const RECONCILE_LIMITS = {
  /** Orders asked for per run. */
  batch: 50,
  /** An open live order untouched this long has no runner left, whatever its process: reconciled too. */
  orphanAfterMs: 10 * 60_000,
} as const;

/** Ledger kinds execution posts (fees use TRADING_FEE_KIND from the ledger). */
export const EXECUTION_LEDGER_KINDS = {
  buy: 'trade_buy',
  sell: 'trade_sell',
  hold: 'order_hold',
  release: 'order_release',
} as const;
