import { AppError } from '../../errors/app-error';
import type { OrderBook } from '../../venues/venue.models';
import { VenueMarketNotFoundError, VenueOutcomeUnknownError, VenueUnavailableError } from '../../venues/venue-client';
import { microsToNumber, toMicros } from '../../money';
import { feeOf, priceBook, toQuote, type BookQuote } from '../routing/order-book.math';
import { fromVenueError } from '../markets/venue-errors';
import type { OrderState } from '../portfolio/portfolio.limits';
import { TERMINAL_EVENTS, type ExecutionEventKind, type FailureCode } from './execution.limits';
import {
  executionEvent,
  toFillView,
  toOrderView,
  toPositionSummary,
  type ExecutionEvent,
  type ExecutionEventParts,
  type OrderView,
} from './execution.models';
import { isFinal } from './execution-service.client';
import { fillNotification, verdictOf } from './service-outcome';
import type { EventLog } from './event-log';
import type { RecordedFill } from './execution.models';
import { draftOrderView, type LiveStart, type OrderPlan, type RunnerDeps } from './order-plan';

export type { LiveStart, OrderPlan, RunnerDeps };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function failureOf(err: AppError): FailureCode {
  return err.code === 'unavailable' ? 'venue_unavailable' : 'upstream_error';
}

/**
 * Runs one order after its stream opened and writes its events to the log:
 * `accepted`, `quote`, `submitted`, `fill`…, then `completed` (filled,
 * partially filled or cancelled), `failed` (rejected or failed), or
 * `outcome_unknown` (live venue_a: the execution service did not report the
 * outcome within the wait; live venue_b: the venue may have the order but its
 * answer was lost; the order stays submitted with its hold and the
 * reconciler ends it). Fills are announced once they are durable.
 */
export class OrderRun {
  private seq = 0;
  /** A live venue_b order was sent to the venue (it may be there whatever happens next). */
  private sentToVenueB = false;

  constructor(
    private readonly plan: OrderPlan,
    private readonly deps: RunnerDeps,
    private readonly log: EventLog<ExecutionEvent>,
    private readonly live?: LiveStart,
  ) {}

  /** Never leaves the log open; rejects only on an unexpected error (after a `failed` or `outcome_unknown` event). */
  async execute(): Promise<ExecutionEvent[]> {
    try {
      this.emit('accepted', { order: this.live ? toOrderView(this.live.order) : this.draftView('pending') });
      if (this.plan.rejectReason !== undefined)
        await this.endWithout('rejected', this.plan.rejectReason, 'nothing_to_execute');
      else if (this.plan.request.mode === 'simulation') await this.simulate();
      else if (this.plan.draft.venue === 'venue_b') await this.liveVenueB();
      else await this.liveVenueA();
      return [...this.log.snapshot()];
    } catch (err) {
      await this.onUnexpected();
      throw err;
    } finally {
      this.log.close();
    }
  }

  private async simulate(): Promise<void> {
    const d = this.plan.draft;
    let book;
    try {
      book = await this.deps.books.get({ venue: d.venue, marketId: d.venueMarketId });
    } catch (err) {
      const e = fromVenueError(err);
      return this.endWithout('failed', e.message, failureOf(e));
    }
    const q = this.quote(book);
    const at = new Date(this.deps.now());
    const fills = q.fills.map((f, i) => ({ price: f.price, size: f.size, fee: q.fillFees[i], filledAt: at }));
    if (q.filled === 0n) {
      const why =
        q.depth === 0n && this.plan.request.limitPrice === undefined
          ? 'the book has no liquidity on this side'
          : 'nothing fillable within the limit price';
      return this.endWithout('cancelled', why);
    }
    return this.settle(q.complete ? 'filled' : 'partially_filled', fills);
  }

  private async liveVenueB(): Promise<void> {
    const d = this.plan.draft;
    await this.quoteBestEffort();
    const order = await this.deps.recorder.submitted(d.id, null);
    this.emit('submitted', { order: toOrderView(order) });
    let result;
    this.sentToVenueB = true;
    try {
      result = await (this.deps.venueBOrders ?? this.deps.venues.venue_b).placeOrder({
        venueMarketId: d.venueMarketId,
        side: d.side,
        outcome: d.outcome,
        size: this.plan.request.size,
        orderType: d.orderType,
        limitPrice: this.plan.request.limitPrice,
        clientOrderId: d.id,
      });
    } catch (err) {
      // The venue may have taken it (its answer was lost): the reconciler asks the venue, nothing is sent again.
      if (err instanceof VenueOutcomeUnknownError)
        return this.awaitOutcome(null, `venue_b's answer to the order was lost (${err.message})`);
      // Refused before the venue had it (not sent, or answered 4xx): ended now, its hold released.
      if (err instanceof VenueUnavailableError || err instanceof VenueMarketNotFoundError) {
        const e = fromVenueError(err);
        return this.endWithout('failed', e.message, failureOf(e));
      }
      throw err; // unexpected: handed to the reconciler (see onUnexpected)
    }
    const fills = result.fills.map((f) => this.fill(toMicros(f.price), toMicros(f.size), f.filledAt));
    if (result.status === 'rejected')
      return this.endWithout(
        'rejected',
        `venue_b rejected the order: ${result.reason ?? 'no reason given'}`,
        'venue_rejected',
        result.venueOrderId,
      );
    // Taken and cancelled unfilled: `cancelled`, as the reconciler records the same answer.
    if (fills.length === 0)
      return this.endWithout(
        'cancelled',
        result.reason ?? 'venue_b cancelled the order without a fill',
        undefined,
        result.venueOrderId,
      );
    return this.settle(result.status === 'filled' ? 'filled' : 'partially_filled', fills, result.venueOrderId);
  }

  /**
   * Follows the order at the execution service until it is final, or until
   * `waitMs` (real time) has passed: then its outcome is unknown and it is
   * handed to the reconciler. With no answer to the submit yet it is submitted
   * again (same `Idempotency-Key`: one order there); failed reads are retried.
   */
  private async liveVenueA(): Promise<void> {
    const d = this.plan.draft;
    const client = this.deps.client!;
    const live = this.live!;
    let o = live.first;
    let problem = live.submitProblem ?? null;
    await this.quoteBestEffort();
    this.emit('submitted', { order: toOrderView(live.order) });
    const started = performance.now();
    while (o === undefined || !isFinal(o.status)) {
      if (performance.now() - started >= this.deps.waitMs) return this.awaitOutcome(o?.id ?? null, problem);
      await sleep(this.deps.pollMs);
      try {
        if (o === undefined) {
          o = await client.submit(live.submit!, this.plan.walletToken);
          await this.deps.recorder.submitted(d.id, o.id);
        } else {
          o = await client.get(o.id, this.plan.walletToken);
        }
        problem = null;
      } catch (err) {
        problem = err instanceof AppError ? err.message : 'execution service failed';
      }
    }
    const v = verdictOf(o, d, this.deps.fees, this.deps.now);
    if (v.kind === 'end') return this.endWithout(v.state, v.reason, v.code, o.id);
    return this.settle(v.state, v.fills, o.id);
  }

  /**
   * Ends the stream with `outcome_unknown`: the order stays submitted, its hold kept, handed to the
   * reconciler. `problem` says why (venue_b: the whole reason; venue_a: why the service could not
   * report it, or null when it did not in time).
   */
  private async awaitOutcome(
    externalOrderId: string | null,
    problem: string | null,
    code: FailureCode = 'timeout',
  ): Promise<void> {
    const d = this.plan.draft;
    const why =
      d.venue === 'venue_b'
        ? (problem ?? 'venue_b did not report the outcome')
        : problem === null
          ? 'the execution service did not report the outcome in time'
          : `the execution service could not report the outcome (${problem})`;
    const who = d.venue === 'venue_b' ? 'venue_b' : 'the service';
    const reason = `outcome unknown: ${why}; the order stays submitted with its hold until ${who} reports it`;
    const order = await this.deps.recorder.awaitOutcome(d.id, externalOrderId, reason);
    if (!order) {
      // Ended already (e.g. by the reconciler of another process): nothing is open any more.
      this.emit('failed', {
        error: { code: 'internal', message: 'the order already ended; see its state in /api/orders' },
      });
      return;
    }
    const balance = await this.deps.recorder.funds(d.userId);
    this.emit('outcome_unknown', {
      order: toOrderView(order),
      balance: { available: num(balance.available), held: num(balance.held) },
      error: { code, message: reason },
    });
  }

  /**
   * After an unexpected error: a live order that may have reached the venue
   * (venue_a: the execution service; venue_b: once sent) is handed to the
   * reconciler (failing it would release a hold the venue may have filled
   * against); another live order still open is ended (its hold released); a
   * settled one is left as it is.
   */
  private async onUnexpected(): Promise<void> {
    const d = this.plan.draft;
    const mayBeAtVenue = d.venue === 'venue_a' || this.sentToVenueB;
    if (this.live && mayBeAtVenue && this.plan.request.mode === 'live') {
      const handed = await this.awaitOutcome(
        this.live.first?.id ?? null,
        d.venue === 'venue_b'
          ? 'the order was sent to venue_b, then execution failed unexpectedly'
          : 'execution failed unexpectedly',
        'internal',
      ).then(
        () => true,
        () => false,
      );
      if (handed) return;
    } else if (this.live) {
      await this.deps.recorder.end(this.plan.draft, true, 'failed', 'internal error').catch(() => undefined);
    }
    this.emit('failed', { error: { code: 'internal', message: 'execution failed unexpectedly' } });
  }

  private fill(price: bigint, size: bigint, filledAt: Date): RecordedFill {
    return { price, size, fee: feeOf(this.plan.draft.venue, { price, size }, this.deps.fees), filledAt };
  }

  /**
   * The current book's price for the order, as information: a live order goes ahead without it.
   * Read on the venue's order budget, so reads exhausting theirs never hold the order up.
   */
  private async quoteBestEffort(): Promise<void> {
    const d = this.plan.draft;
    try {
      this.quote(await this.deps.books.get({ venue: d.venue, marketId: d.venueMarketId }, { budget: 'order' }));
    } catch {
      // No quote event: the venue's book could not be read.
    }
  }

  /** Walks the order through `book` and emits the `quote` event. */
  private quote(book: Pick<OrderBook, 'bids' | 'asks'>): BookQuote {
    const d = this.plan.draft;
    const q = priceBook(
      d.venue,
      book,
      d.side,
      d.outcome,
      { contracts: this.plan.request.size },
      { limitPrice: this.plan.request.limitPrice, fees: this.deps.fees },
    );
    this.emit('quote', { quote: toQuote(q) });
    return q;
  }

  /** Records fills (or, anonymous, only reports them), then `submitted` (simulation), `fill`…, `completed`. */
  private async settle(
    state: 'filled' | 'partially_filled',
    fills: RecordedFill[],
    externalOrderId: string | null = null,
  ): Promise<void> {
    const simulated = this.plan.request.mode === 'simulation';
    const announceFills = () => {
      let cumulative = 0n;
      fills.forEach((f, i) => {
        cumulative += f.size;
        this.emit('fill', { fill: toFillView(i + 1, f, cumulative) });
      });
    };
    if (this.plan.anonymous) {
      this.emit('submitted', { order: this.draftView('submitted') });
      announceFills();
      this.emit('completed', { order: this.draftView(state, fills) });
      return;
    }
    // The fill's notification is stored with the order: the stream ends at `completed` with it stored.
    const r = await this.deps.recorder.settle(this.plan.draft, !simulated, state, fills, externalOrderId, (order) => [
      fillNotification(this.plan.draft.userId, toOrderView(order), this.plan.marketTitle),
    ]);
    if (!r.ok) {
      this.emit('failed', { order: toOrderView(r.order), error: { code: r.code, message: r.message } });
      return;
    }
    if (simulated)
      this.emit('submitted', {
        order: {
          ...toOrderView(r.order),
          state: 'submitted',
          filledSize: 0,
          avgPrice: null,
          notional: 0,
          fees: 0,
          total: 0,
        },
      });
    announceFills();
    this.emit('completed', {
      order: toOrderView(r.order),
      position: toPositionSummary(r.position),
      balance: { available: num(r.balance.available), held: num(r.balance.held) },
    });
  }

  /** Ends the order without fills: `cancelled` completes; `rejected` and `failed` fail with `code`. */
  private async endWithout(
    state: OrderState,
    reason: string,
    code?: FailureCode,
    externalOrderId: string | null = null,
  ): Promise<void> {
    const order = this.plan.anonymous
      ? { ...this.draftView(state), failureReason: reason }
      : toOrderView(
          await this.deps.recorder.end(this.plan.draft, this.live !== undefined, state, reason, externalOrderId),
        );
    if (state === 'cancelled') this.emit('completed', { order });
    else this.emit('failed', { order, error: { code: code ?? 'internal', message: reason } });
  }

  /**
   * Appends an event; a terminal one (`completed`, `failed`, `outcome_unknown`) closes the log, so a
   * stream ends with it, in the same write. Nothing follows a terminal event: an unexpected error
   * after one (the order's outcome already told) adds nothing.
   */
  private emit(event: ExecutionEventKind, parts: ExecutionEventParts): void {
    if (this.log.isClosed) return;
    this.seq += 1;
    this.log.push(executionEvent(this.plan.draft.id, this.seq, event, new Date(this.deps.now()), false, parts));
    if (TERMINAL_EVENTS.has(event)) this.log.close();
  }

  /** The order as the plan and fills make it (anonymous orders have no row). */
  private draftView(state: OrderState, fills: readonly RecordedFill[] = []): OrderView {
    return draftOrderView(this.plan, state, fills, new Date(this.deps.now()));
  }
}

const num = microsToNumber;
