import type { Order } from '../../db/generated/client';
import type { Logger } from '../../http/logger';
import { microsToNumber } from '../../money';
import type { NewNotification } from '../notifications';
import type { FeeSchedule } from '../routing/order-book.math';
import { RECONCILE_LIMITS } from './execution.limits';
import { toOrderView } from './execution.models';
import {
  isFinal,
  type ExecutionServiceClient,
  type ExecutionServiceOrder,
  type ExecutionServiceOrderRequest,
} from './execution-service.client';
import { fillNotification, submitRequestOf, verdictOf, type ServiceVerdict } from './service-outcome';
import { OrderNotOpenError, draftOf, type TradeRecorder } from './trade-recorder';
import { venueBVerdict } from './venue-b-outcome';
import type { VenueBOrders } from './venue-b-orders';
import type { Venue } from '../../venues/venue.models';
import type { OrderDraft } from './execution.models';

export interface ReconcilerDeps {
  recorder: TradeRecorder;
  client: ExecutionServiceClient | null;
  /** Asks venue_b about the orders placed there (absent: venue_b orders are not reconciled). */
  venueB?: Pick<VenueBOrders, 'findOrder'>;
  /**
   * How long a live order no runner follows (handed over, or its process gone) stays open before it
   * is asked about (ms): longer than a placement takes, so an order still on its way to the venue is
   * not taken for "never placed".
   */
  staleMs: number;
  fees: FeeSchedule;
  notify: (items: NewNotification[]) => Promise<unknown>;
  now: () => number;
  /** A market's title for the fill notification (the catalog key `venue:marketId`). */
  marketTitle: (marketKey: string) => Promise<string>;
  logger?: Logger;
}

/** What this process still knows of an order it handed over: the exact submit body and the caller's wallet token. */
interface HandedOver {
  submit?: ExecutionServiceOrderRequest;
  walletToken?: string;
}

/**
 * Ends the live orders nobody follows any more: venue_a orders whose outcome
 * was not known when their stream ended (the runner's wait ran out, the service
 * could not be asked), and the live orders of both venues left `pending` or
 * `submitted` over `staleMs` by a runner that handed them over (venue_b: the
 * venue's answer was lost after the order was sent) or by a process that is
 * gone (it died between placing the order and recording the answer), or over
 * 10 minutes by any.
 * It asks the venue about each: venue_a's execution service
 * (`GET /orders/{externalOrderId}`; with no external id yet, the submit again
 * with the same `Idempotency-Key: order:<id>`, which the service dedupes), or
 * venue_b for the order placed with the order's id as its client order id
 * (see `VenueBOrders.findOrder`). Once the answer is final it settles the
 * fills or ends the order (releasing its hold), exactly once: the order's move
 * from `pending`/`submitted` and its effects commit in one transaction that
 * only an open order passes, so a second run (or another process) changes
 * nothing. An answer not final yet, or no answer, leaves the order for the next run.
 */
export class OrderReconciler {
  private readonly handedOver = new Map<string, HandedOver>();

  constructor(private readonly deps: ReconcilerDeps) {}

  /**
   * Keeps the submit body and wallet token of an order handed over in this
   * process (in memory only, never stored): a re-submit sends the same body,
   * and the service is asked as the caller while the token lasts.
   */
  remember(orderId: string, what: HandedOver): void {
    this.handedOver.set(orderId, what);
  }

  /** One pass over the unresolved orders (never those in `running`); the number of orders it ended. */
  async run(running: readonly string[], limit: number = RECONCILE_LIMITS.batch): Promise<number> {
    const venues: Venue[] = [
      ...(this.deps.client ? ['venue_a' as const] : []),
      ...(this.deps.venueB ? ['venue_b' as const] : []),
    ];
    const now = Date.now();
    const orders = await this.deps.recorder.unresolved({
      limit,
      venues,
      staleBefore: new Date(now - this.deps.staleMs),
      orphanBefore: new Date(now - RECONCILE_LIMITS.orphanAfterMs),
      running,
    });
    let ended = 0;
    for (const order of orders) {
      try {
        if (await (order.venue === 'venue_a' ? this.venueA(order) : this.venueB(order))) ended += 1;
      } catch (err) {
        this.deps.logger?.error({ err, orderId: order.id }, 'reconciling a live order failed; will retry');
      }
    }
    return ended;
  }

  /** A venue_b order: ended from what the venue says of it (or left for later while it may still fill). */
  private async venueB(row: Order): Promise<boolean> {
    let found;
    try {
      found = await this.deps.venueB!.findOrder({
        clientOrderId: row.id,
        venueMarketId: row.venueMarketId,
        outcome: row.outcome,
        placedAfter: row.createdAt,
      });
    } catch (err) {
      this.deps.logger?.warn({ err, orderId: row.id }, 'venue_b could not report a live order yet');
      return false;
    }
    const d = draftOf(row);
    const v = venueBVerdict(found, d, this.deps.fees);
    if (v === null) return false;
    const venueOrderId = found !== null && found !== 'simulated' ? found.venueOrderId : null;
    return this.apply(row.id, d, v, venueOrderId);
  }

  private async venueA(row: Order): Promise<boolean> {
    const client = this.deps.client!;
    const kept = this.handedOver.get(row.id);
    const d = draftOf(row);
    let o: ExecutionServiceOrder;
    try {
      o = row.externalOrderId
        ? await client.get(row.externalOrderId, kept?.walletToken)
        : await client.submit(
            kept?.submit ??
              submitRequestOf(d, {
                size: microsToNumber(row.requestedSizeMicros),
                limitPrice: row.limitPriceMicros === null ? undefined : microsToNumber(row.limitPriceMicros),
              }),
            kept?.walletToken,
          );
    } catch (err) {
      this.deps.logger?.warn({ err, orderId: row.id }, 'the execution service could not report a live order yet');
      return false;
    }
    if (!isFinal(o.status)) {
      if (row.externalOrderId !== o.id)
        await this.deps.recorder.awaitOutcome(
          row.id,
          o.id,
          row.failureReason ?? 'outcome unknown: the order was left open',
        );
      return false;
    }
    return this.apply(row.id, d, verdictOf(o, d, this.deps.fees, this.deps.now), o.id);
  }

  /** Ends an open order by a final verdict (once; false when another run ended it first), then notifies its fills. */
  private async apply(id: string, d: OrderDraft, v: ServiceVerdict, externalOrderId: string | null): Promise<boolean> {
    try {
      if (v.kind === 'end') {
        await this.deps.recorder.end(d, true, v.state, v.reason, externalOrderId);
      } else {
        const r = await this.deps.recorder.settle(d, true, v.state, v.fills, externalOrderId);
        if (r.ok) {
          const order = toOrderView(r.order);
          // Notifying never fails the settlement it follows.
          await this.deps
            .marketTitle(d.marketKey)
            .then((title) => this.deps.notify([fillNotification(d.userId, order, title)]))
            .catch((err: unknown) =>
              this.deps.logger?.error({ err, orderId: id }, 'notifying a reconciled fill failed'),
            );
        }
      }
    } catch (err) {
      // Another run ended it first: nothing to do.
      if (!(err instanceof OrderNotOpenError)) throw err;
      this.handedOver.delete(id);
      return false;
    }
    this.handedOver.delete(id);
    this.deps.logger?.info({ orderId: id, venue: d.venue, state: v.state }, 'reconciled a live order');
    return true;
  }
}
