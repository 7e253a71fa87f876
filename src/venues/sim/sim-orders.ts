import type { BookLevel } from '../venue.models';
import type { OrderFill, PlaceOrderRequest, PlaceOrderResult } from '../venue-client';
import type { YesBook } from './sim-book';
import { roundToTick } from './sim-price';

/** Venue rules the matcher needs. */
export interface FillRules {
  tick: number;
  /** venue_b trades whole contracts only. */
  wholeContracts: boolean;
}

/** The outcome-denominated side of the YES book an order takes from, best first. */
function takeSide(
  book: YesBook,
  order: PlaceOrderRequest,
  tick: number,
): { levels: BookLevel[]; priceOf: (l: BookLevel) => number } {
  // Buying YES or selling NO lifts YES asks; selling YES or buying NO hits YES bids.
  const liftsAsks = (order.outcome === 'yes') === (order.side === 'buy');
  const levels = liftsAsks ? book.asks : book.bids;
  return { levels, priceOf: (l) => (order.outcome === 'yes' ? l.price : roundToTick(1 - l.price, tick)) };
}

function validate(order: PlaceOrderRequest, rules: FillRules): string | null {
  if (!Number.isFinite(order.size) || order.size <= 0) return 'size must be a positive number';
  if (rules.wholeContracts && !Number.isInteger(order.size)) return 'this venue trades whole contracts only';
  if (order.orderType === 'limit') {
    const p = order.limitPrice;
    if (p === undefined || !Number.isFinite(p) || p <= 0 || p >= 1)
      return 'limit orders need a limitPrice strictly between 0 and 1';
  }
  return null;
}

/**
 * Matches an order against a snapshot of the YES book, immediate-or-cancel:
 * it takes levels best-first until filled, the book runs out, or (for limit
 * orders) the next level is worse than the limit (a buy fills only at prices
 * ≤ limitPrice, a sell only at ≥ limitPrice, in the order's outcome terms).
 * Nothing rests on the book and the snapshot is not mutated, so the same
 * order against the same book always fills the same way.
 */
export function fillAgainstBook(
  book: YesBook,
  order: PlaceOrderRequest,
  rules: FillRules,
  at: Date,
): Omit<PlaceOrderResult, 'venueOrderId'> {
  const invalid = validate(order, rules);
  if (invalid) return { status: 'rejected', fills: [], reason: invalid };
  const { levels, priceOf } = takeSide(book, order, rules.tick);
  if (levels.length === 0) return { status: 'rejected', fills: [], reason: 'no liquidity on the book' };
  // Sizes are tracked in hundredths so repeated subtraction stays exact.
  let remaining = Math.round(order.size * 100);
  const fills: OrderFill[] = [];
  const eps = rules.tick / 10;
  for (const level of levels) {
    if (remaining <= 0) break;
    const price = priceOf(level);
    if (order.orderType === 'limit' && order.limitPrice !== undefined) {
      const ok = order.side === 'buy' ? price <= order.limitPrice + eps : price >= order.limitPrice - eps;
      if (!ok) break;
    }
    const take = Math.min(remaining, Math.round(level.size * 100));
    if (take <= 0) continue;
    fills.push({ price, size: take / 100, filledAt: at });
    remaining -= take;
  }
  if (fills.length === 0) {
    return {
      status: 'rejected',
      fills,
      reason: 'limit price not marketable; the simulated venue does not rest orders',
    };
  }
  return remaining > 0 ? { status: 'partially_filled', fills } : { status: 'filled', fills };
}
