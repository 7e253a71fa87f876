import type { NewNotification } from '../notifications';
import { toMicros } from '../../money';
import { feeOf, type FeeSchedule } from '../routing/order-book.math';
import type { FailureCode } from './execution.limits';
import type { ExecuteRequest, OrderView } from './execution.models';
import type { ExecutionServiceOrder, ExecutionServiceOrderRequest } from './execution-service.client';
import type { OrderDraft, RecordedFill } from './execution.models';

/** What a final answer of the execution service does to its order: settle its fills, or end it without. */
export type ServiceVerdict =
  | { kind: 'settle'; state: 'filled' | 'partially_filled'; fills: RecordedFill[] }
  | { kind: 'end'; state: 'cancelled' | 'rejected' | 'failed'; reason: string; code?: FailureCode };

/**
 * The verdict on a venue_a order from the execution service's final answer
 * (the stream's runner and the reconciler read it alike). Fees are ours,
 * computed per fill; a fill without a time is stamped `now`.
 */
export function verdictOf(
  o: ExecutionServiceOrder,
  d: Pick<OrderDraft, 'venue' | 'requestedSizeMicros'>,
  fees: FeeSchedule,
  now: () => number,
): ServiceVerdict {
  const fills = o.fills.map((f): RecordedFill => {
    const price = toMicros(f.price);
    const size = toMicros(f.size);
    return {
      price,
      size,
      fee: feeOf(d.venue, { price, size }, fees),
      filledAt: f.filledAt ? new Date(f.filledAt) : new Date(now()),
    };
  });
  const filled = fills.reduce((s, f) => s + f.size, 0n);
  const end = (state: 'cancelled' | 'rejected' | 'failed', reason: string, code?: FailureCode): ServiceVerdict => ({
    kind: 'end',
    state,
    reason,
    ...(code && { code }),
  });
  const why = o.reason ?? 'no reason given';
  if (filled > d.requestedSizeMicros)
    return end('failed', 'the execution service reported more contracts than ordered', 'upstream_error');
  if (o.status === 'rejected')
    return end('rejected', `the execution service rejected the order: ${why}`, 'venue_rejected');
  if (o.status === 'failed') return end('failed', `the execution service failed the order: ${why}`, 'upstream_error');
  if (fills.length === 0) return end('cancelled', o.reason ?? 'nothing filled');
  return { kind: 'settle', state: filled === d.requestedSizeMicros ? 'filled' : 'partially_filled', fills };
}

/**
 * The body venue_a's execution service gets for an order: the same on every
 * re-submit. Rebuilt from a row (the reconciler, in another process) it lacks
 * the funding, referrer and titles, which are not stored.
 */
export function submitRequestOf(
  d: OrderDraft,
  r: Omit<ExecuteRequest, 'marketId' | 'side' | 'outcome'>,
): ExecutionServiceOrderRequest {
  const funded = r.fundingSourceChain || r.fundingSourceCurrency || r.fundingAmountAtomic;
  const metadata = {
    coreId: d.coreEventId ?? undefined,
    eventTitle: r.eventTitle,
    marketTitle: r.marketTitle,
    eventSlug: r.eventSlug,
    category: r.category,
  };
  return {
    clientOrderId: d.id,
    userId: d.userId,
    marketId: d.venueMarketId,
    side: d.side,
    outcome: d.outcome,
    size: r.size,
    orderType: d.orderType,
    limitPrice: r.limitPrice,
    funding: funded
      ? { chain: r.fundingSourceChain, currency: r.fundingSourceCurrency, amountAtomic: r.fundingAmountAtomic }
      : undefined,
    referrerId: r.referrerId,
    metadata: Object.fromEntries(Object.entries(metadata).filter((e): e is [string, string] => e[1] !== undefined)),
  };
}

/** The `order_fill` notification of a settled order. */
export function fillNotification(userId: string, o: OrderView, marketTitle: string): NewNotification {
  return {
    userId,
    kind: 'order_fill',
    title: o.state === 'filled' ? 'Order filled' : 'Order partially filled',
    body:
      `${o.side === 'buy' ? 'Bought' : 'Sold'} ${o.filledSize} ${o.outcome.toUpperCase()} at ${o.avgPrice} ` +
      `on ${marketTitle}`,
    data: { orderId: o.id, venue: o.venue, marketId: o.marketId, state: o.state },
  };
}
