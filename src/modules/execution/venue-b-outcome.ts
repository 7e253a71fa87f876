import { toMicros } from '../../money';
import { feeOf, type FeeSchedule } from '../routing/order-book.math';
import type { OrderDraft, RecordedFill } from './execution.models';
import type { ServiceVerdict } from './service-outcome';
import type { VenueBOrderLookup } from './venue-b-orders';

/**
 * The verdict on a live venue_b order whose answer was never recorded (its process stopped first,
 * or the answer was lost: a timeout, a dropped connection or a 5xx after the request was sent),
 * from what the venue says of it now (see `VenueBOrders.findOrder`), or null while the venue may
 * still fill it (resting or pending there: asked again on the next run):
 * - executed or cancelled with fills: settled with those fills (`filled` when they make the whole
 *   size, else `partially_filled`); fees are ours, computed per fill as for an order that ran;
 * - cancelled without a fill: `cancelled`;
 * - unknown to the venue: it was never placed, `failed`;
 * - the venue is the simulator here, which takes no live orders and keeps none: `failed`.
 * Every end releases the order's hold (a buy's money, a sell's size of the position).
 */
export function venueBVerdict(
  found: VenueBOrderLookup,
  d: Pick<OrderDraft, 'venue' | 'requestedSizeMicros'>,
  fees: FeeSchedule,
): ServiceVerdict | null {
  if (found === 'simulated')
    return {
      kind: 'end',
      state: 'failed',
      reason:
        'venue_b is simulated here and keeps no record of live orders: the order ended without fills, ' +
        'its hold released',
      code: 'venue_unavailable',
    };
  if (found === null)
    return {
      kind: 'end',
      state: 'failed',
      reason: 'the order never reached venue_b (the venue has no record of it): nothing filled, its hold released',
      code: 'venue_unavailable',
    };
  if (!found.final) return null;
  const fills = found.fills.map((f): RecordedFill => {
    const price = toMicros(f.price);
    const size = toMicros(f.size);
    return { price, size, fee: feeOf(d.venue, { price, size }, fees), filledAt: f.filledAt };
  });
  const filled = fills.reduce((s, f) => s + f.size, 0n);
  if (filled > d.requestedSizeMicros)
    return {
      kind: 'end',
      state: 'failed',
      reason: 'venue_b reported more contracts than ordered',
      code: 'upstream_error',
    };
  if (filled === 0n)
    return { kind: 'end', state: 'cancelled', reason: `venue_b ${found.status} the order without a fill` };
  return { kind: 'settle', state: filled === d.requestedSizeMicros ? 'filled' : 'partially_filled', fills };
}
