import { AppError } from '../../errors/app-error';
import type { Venue, VenueClient } from '../../venues/venue.types';
import { microsToNumber } from '../ledger/money';
import type { NewNotification } from '../notifications';
import { MICRO, feeOf, notionalOf, priceBook, toMicros, toQuote, type FeeSchedule } from '../routing/order-book.math';
import type { MarketBooks } from '../routing/market-books';
import { fromVenueError } from '../markets/venue-errors';
import type { CheckedRequest } from './execute-request';
import type { ExecutionEventKind, FailureCode, OrderState } from './execution.limits';
import { toOrderView, toPositionSummary, type ExecutionEvent, type OrderView } from './execution.models';
import { isFinal, type ExecutionServiceClient, type ExecutionServiceOrder } from './execution-service.client';
import type { EventLog } from './event-log';
import type { Order } from '../../db/generated/client';
import type { OrderDraft, RecordedFill, TradeRecorder } from './trade-recorder';

/** Everything decided about an order before its stream opens. */
export interface OrderPlan {
  draft: OrderDraft;
  /** Anonymous simulations persist nothing. */
  anonymous: boolean;
  request: CheckedRequest;
  marketTitle: string;
  walletToken?: string;
  /** Set when the order is refused before anything else (size 0). */
  rejectReason?: string;
}

/** What a live order did before its stream opened: its row, and venue_a's first answer. */
export interface LiveStart {
  order: Order;
  first?: ExecutionServiceOrder;
}

export interface RunnerDeps {
  books: MarketBooks;
  venues: Readonly<Record<Venue, VenueClient>>;
  recorder: TradeRecorder;
  client: ExecutionServiceClient | null;
  fees: FeeSchedule;
  pollMs: number;
  waitMs: number;
  notify: (items: NewNotification[]) => Promise<unknown>;
  now: () => number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function failureOf(err: AppError): FailureCode {
  return err.code === 'unavailable' ? 'venue_unavailable' : 'upstream_error';
}

/**
 * Runs one order after its stream opened and writes its events to the log:
 * `accepted`, `quote`, `submitted`, `fill`…, then `completed` (filled,
 * partially filled or cancelled) or `failed` (rejected or failed). Fills are
 * announced once they are durable.
 */
export class OrderRun {
  private seq = 0;

  constructor(
    private readonly plan: OrderPlan,
    private readonly deps: RunnerDeps,
    private readonly log: EventLog<ExecutionEvent>,
    private readonly live?: LiveStart,
  ) {}

  /** Never leaves the log open; rejects only on an unexpected error (after a `failed` event). */
  async execute(): Promise<ExecutionEvent[]> {
    try {
      this.emit('accepted', { order: this.live ? toOrderView(this.live.order) : this.draftView('pending') });
      if (this.plan.rejectReason !== undefined) await this.endWithout('rejected', this.plan.rejectReason, 'nothing_to_execute');
      else if (this.plan.request.mode === 'simulation') await this.simulate();
      else if (this.plan.draft.venue === 'venue_b') await this.liveVenueB();
      else await this.liveVenueA();
      return [...this.log.snapshot()];
    } catch (err) {
      // A live order still open is ended (its hold released); a settled one is left as it is.
      if (this.live) await this.deps.recorder.end(this.plan.draft, true, 'failed', 'internal error').catch(() => undefined);
      this.emit('failed', { error: { code: 'internal', message: 'execution failed unexpectedly' } });
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
    const q = priceBook(d.venue, book, d.side, d.outcome, { contracts: this.plan.request.size }, { limitPrice: this.plan.request.limitPrice, fees: this.deps.fees });
    this.emit('quote', { quote: toQuote(q) });
    const at = new Date(this.deps.now());
    const fills = q.fills.map((f, i) => ({ price: f.price, size: f.size, fee: q.fillFees[i]!, filledAt: at }));
    if (q.filled === 0n) {
      const why = q.depth === 0n && this.plan.request.limitPrice === undefined ? 'the book has no liquidity on this side' : 'nothing fillable within the limit price';
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
    try {
      result = await this.deps.venues.venue_b.placeOrder({
        venueMarketId: d.venueMarketId,
        side: d.side,
        outcome: d.outcome,
        size: this.plan.request.size,
        orderType: d.orderType,
        limitPrice: this.plan.request.limitPrice,
        clientOrderId: d.id,
      });
    } catch (err) {
      const e = fromVenueError(err);
      return this.endWithout('failed', e.message, failureOf(e));
    }
    const fills = result.fills.map((f) => this.fill(toMicros(f.price), toMicros(f.size), f.filledAt));
    if (result.status === 'rejected') return this.endWithout('rejected', `venue_b rejected the order: ${result.reason ?? 'no reason given'}`, 'venue_rejected', result.venueOrderId);
    if (fills.length === 0) return this.endWithout('cancelled', 'nothing filled at the venue', undefined, result.venueOrderId);
    return this.settle(result.status, fills, result.venueOrderId);
  }

  private async liveVenueA(): Promise<void> {
    const d = this.plan.draft;
    const client = this.deps.client!;
    let o = this.live!.first!;
    await this.quoteBestEffort();
    this.emit('submitted', { order: toOrderView(this.live!.order) });
    const deadline = this.deps.now() + this.deps.waitMs;
    while (!isFinal(o.status)) {
      if (this.deps.now() >= deadline) return this.endWithout('failed', 'the execution service did not finish the order in time; it may still fill there', 'timeout', o.id);
      await sleep(this.deps.pollMs);
      try {
        o = await client.get(o.id, this.plan.walletToken);
      } catch (err) {
        const e = err instanceof AppError ? err : AppError.upstream('execution service failed');
        return this.endWithout('failed', e.message, 'upstream_error', o.id);
      }
    }
    const fills = o.fills.map((f) => this.fill(toMicros(f.price), toMicros(f.size), f.filledAt ? new Date(f.filledAt) : new Date(this.deps.now())));
    const filled = fills.reduce((s, f) => s + f.size, 0n);
    if (filled > d.requestedSizeMicros) return this.endWithout('failed', 'the execution service reported more contracts than ordered', 'upstream_error', o.id);
    if (o.status === 'rejected') return this.endWithout('rejected', `the execution service rejected the order: ${o.reason ?? 'no reason given'}`, 'venue_rejected', o.id);
    if (o.status === 'failed') return this.endWithout('failed', `the execution service failed the order: ${o.reason ?? 'no reason given'}`, 'upstream_error', o.id);
    if (fills.length === 0) return this.endWithout('cancelled', o.reason ?? 'nothing filled', undefined, o.id);
    return this.settle(filled === d.requestedSizeMicros ? 'filled' : 'partially_filled', fills, o.id);
  }

  private fill(price: bigint, size: bigint, filledAt: Date): RecordedFill {
    return { price, size, fee: feeOf(this.plan.draft.venue, { price, size }, this.deps.fees), filledAt };
  }

  /** The current book's price for the order, as information: a live order goes ahead without it. */
  private async quoteBestEffort(): Promise<void> {
    const d = this.plan.draft;
    try {
      const book = await this.deps.books.get({ venue: d.venue, marketId: d.venueMarketId });
      const q = priceBook(d.venue, book, d.side, d.outcome, { contracts: this.plan.request.size }, { limitPrice: this.plan.request.limitPrice, fees: this.deps.fees });
      this.emit('quote', { quote: toQuote(q) });
    } catch {
      // No quote event: the venue's book could not be read.
    }
  }

  /** Records fills (or, anonymous, only reports them), then `submitted` (simulation), `fill`…, `completed`. */
  private async settle(state: 'filled' | 'partially_filled', fills: RecordedFill[], externalOrderId: string | null = null): Promise<void> {
    const simulated = this.plan.request.mode === 'simulation';
    const announceFills = () => {
      let cumulative = 0n;
      fills.forEach((f, i) => {
        cumulative += f.size;
        this.emit('fill', { fill: { seq: i + 1, price: num(f.price), size: num(f.size), fee: num(f.fee), filledSize: num(cumulative), filledAt: f.filledAt } });
      });
    };
    if (this.plan.anonymous) {
      this.emit('submitted', { order: this.draftView('submitted') });
      announceFills();
      this.emit('completed', { order: this.draftView(state, fills) });
      return;
    }
    const r = await this.deps.recorder.settle(this.plan.draft, !simulated, state, fills, externalOrderId);
    if (!r.ok) {
      this.emit('failed', { order: toOrderView(r.order), error: { code: r.code, message: r.message } });
      return;
    }
    if (simulated) this.emit('submitted', { order: { ...toOrderView(r.order), state: 'submitted', filledSize: 0, avgPrice: null, notional: 0, fees: 0, total: 0 } });
    announceFills();
    this.emit('completed', {
      order: toOrderView(r.order),
      position: toPositionSummary(r.position),
      balance: { available: num(r.balance.available), held: num(r.balance.held) },
    });
    const o = toOrderView(r.order);
    await this.deps.notify([
      {
        userId: this.plan.draft.userId,
        kind: 'order_fill',
        title: state === 'filled' ? 'Order filled' : 'Order partially filled',
        body: `${o.side === 'buy' ? 'Bought' : 'Sold'} ${o.filledSize} ${o.outcome.toUpperCase()} at ${o.avgPrice} on ${this.plan.marketTitle}`,
        data: { orderId: o.id, venue: o.venue, marketId: o.marketId, state: o.state },
      },
    ]);
  }

  /** Ends the order without fills: `cancelled` completes; `rejected` and `failed` fail with `code`. */
  private async endWithout(state: OrderState, reason: string, code?: FailureCode, externalOrderId: string | null = null): Promise<void> {
    const order = this.plan.anonymous
      ? { ...this.draftView(state), failureReason: reason }
      : toOrderView(await this.deps.recorder.end(this.plan.draft, this.live !== undefined, state, reason, externalOrderId));
    if (state === 'cancelled') this.emit('completed', { order });
    else this.emit('failed', { order, error: { code: code ?? 'internal', message: reason } });
  }

  private emit(event: ExecutionEventKind, parts: Partial<Pick<ExecutionEvent, 'order' | 'quote' | 'fill' | 'position' | 'balance' | 'error'>>): void {
    this.seq += 1;
    const orderId = this.plan.draft.id;
    this.log.push({
      id: `${orderId}:${this.seq}`,
      event,
      seq: this.seq,
      orderId,
      at: new Date(this.deps.now()),
      replayed: false,
      order: null,
      quote: null,
      fill: null,
      position: null,
      balance: null,
      error: null,
      ...parts,
    });
  }

  /** The order as the plan and fills make it (anonymous orders have no row). */
  private draftView(state: OrderState, fills: readonly RecordedFill[] = []): OrderView {
    const d = this.plan.draft;
    let filled = 0n;
    let notional = 0n;
    let fees = 0n;
    for (const f of fills) {
      filled += f.size;
      notional += notionalOf(f.price, f.size);
      fees += f.fee;
    }
    const at = new Date(this.deps.now());
    return {
      id: d.id,
      state,
      venue: d.venue,
      marketId: d.venueMarketId,
      coreId: d.coreEventId,
      outcome: d.outcome,
      side: d.side,
      orderType: d.orderType,
      mode: d.mode,
      limitPrice: d.limitPriceMicros === null ? null : num(d.limitPriceMicros),
      requestedSize: num(d.requestedSizeMicros),
      filledSize: num(filled),
      avgPrice: filled > 0n ? num((notional * MICRO) / filled) : null,
      notional: num(notional),
      fees: num(fees),
      total: num(d.side === 'buy' ? notional + fees : notional - fees),
      failureReason: null,
      externalOrderId: null,
      positionId: d.positionId,
      source: d.source,
      persisted: !this.plan.anonymous,
      createdAt: at,
      updatedAt: at,
    };
  }
}

const num = microsToNumber;
