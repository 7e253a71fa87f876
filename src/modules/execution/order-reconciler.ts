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
import { fillNotification, submitRequestOf, verdictOf } from './service-outcome';
import { OrderNotOpenError, draftOf, type TradeRecorder } from './trade-recorder';

export interface ReconcilerDeps {
  recorder: TradeRecorder;
  client: ExecutionServiceClient | null;
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
 * Ends live venue_a orders whose outcome was not known when their stream
 * ended (the runner's wait ran out, the service could not be asked) or whose
 * process stopped: it asks the execution service for each
 * (`GET /orders/{externalOrderId}`; with no external id yet, the submit again
 * with the same `Idempotency-Key: order:<id>`, which the service dedupes), and
 * once the answer is final settles the fills or ends the order, exactly once:
 * the order's move from `submitted` and its effects commit in one transaction
 * that only an open order passes, so a second run (or another process) changes
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
    if (!this.deps.client) return 0;
    const orders = await this.deps.recorder.unresolved({
      limit,
      orphanBefore: new Date(Date.now() - RECONCILE_LIMITS.orphanAfterMs),
      running,
    });
    let ended = 0;
    for (const order of orders) {
      try {
        if (await this.one(order)) ended += 1;
      } catch (err) {
        this.deps.logger?.error({ err, orderId: order.id }, 'reconciling a live order failed; will retry');
      }
    }
    return ended;
  }

  private async one(row: Order): Promise<boolean> {
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
    const v = verdictOf(o, d, this.deps.fees, this.deps.now);
    try {
      if (v.kind === 'end') {
        await this.deps.recorder.end(d, true, v.state, v.reason, o.id);
      } else {
        const r = await this.deps.recorder.settle(d, true, v.state, v.fills, o.id);
        if (r.ok) {
          const order = toOrderView(r.order);
          // Notifying never fails the settlement it follows.
          await this.deps
            .marketTitle(d.marketKey)
            .then((title) => this.deps.notify([fillNotification(d.userId, order, title)]))
            .catch((err: unknown) =>
              this.deps.logger?.error({ err, orderId: row.id }, 'notifying a reconciled fill failed'),
            );
        }
      }
    } catch (err) {
      // Another run ended it first: nothing to do.
      if (!(err instanceof OrderNotOpenError)) throw err;
      this.handedOver.delete(row.id);
      return false;
    }
    this.handedOver.delete(row.id);
    return true;
  }
}
