import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { Logger } from '../../http/logger';
import { PeriodicTask } from '../../infra';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { InsufficientFundsError } from '../ledger';
import { toMicros, MICROS_PER_UNIT as MICRO } from '../../money';
import { CENT, feeOf } from '../routing/order-book.math';
import { checkExecuteRequest, checkSellRequest, sizeMicrosFor } from './execute-request';
import { PositionHeldError } from './position-rows';
import { checkHolding, heldRefusal, positionSellRequest } from './position-sells';
import { checkLivePositionSell, modeOnVenue, type SimulatedVenues } from './simulated-venues';
import {
  eventsFromOrder,
  reviveEvent,
  type ExecuteRequest,
  type ExecutionEvent,
  type ExecutionPrincipal,
  type RunOptions,
  type SellRequest,
} from './execution.models';
import { EventLog } from './event-log';
import { outcomeUnknown } from './execution-service.client';
import { lookUpMarket, type Catalog } from './market-lookup';
import { OrderReconciler } from './order-reconciler';
import { OrderRun, type LiveStart, type OrderPlan, type RunnerDeps } from './order-runner';
import { submitRequestOf } from './service-outcome';
import type { OrderDraft } from './execution.models';
import { usdText } from '../../money/money';

/** A running (or replayed) execution. */
export interface ExecutionStream {
  orderId: string;
  /** True when an Idempotency-Key replays the first outcome: nothing ran again. */
  replayed: boolean;
  /** Every event from the first; stopping a reader never stops the execution. */
  events(): AsyncIterableIterator<ExecutionEvent>;
  /** The last event (`completed`, `failed` or `outcome_unknown`), once the execution ended. */
  outcome: Promise<ExecutionEvent>;
}

/** `s`, whose readers and outcome finish only after `later()` settles (whether it succeeds or not). */
function endingAfter(s: ExecutionStream, later: () => Promise<unknown>): ExecutionStream {
  const settled = () =>
    later().then(
      () => undefined,
      () => undefined,
    );
  return {
    ...s,
    events: async function* () {
      yield* s.events();
      await settled();
    },
    outcome: s.outcome.then(async (last) => (await settled(), last)),
  };
}

/** What an Idempotency-Key keeps of an execution: its whole event sequence. */
interface StoredOutcome {
  events: ExecutionEvent[];
}

export interface ExecutionServiceDeps extends RunnerDeps, Catalog {
  prisma: PrismaClient;
  idempotency: IdempotencyService;
  /** The simulated venues: live orders on them never settle in USD (see `modeOnVenue`). */
  simulated?: SimulatedVenues;
  /** How long a live order no runner follows (handed over, or its process gone) stays open unasked (ms). */
  staleOrderMs: number;
  logger?: Logger;
}

/**
 * Runs orders (`/execute`, position sells, and for other modules such as
 * copytrading) and streams their progress. Everything that can refuse an
 * order with a status (bad input 400, credentials 401, execution service not
 * configured 503 or failing at submit 502, a reused Idempotency-Key 409, a
 * live order on a simulated venue in production 409)
 * happens in {@link run} before it returns (a 502/503 there leaves the
 * Idempotency-Key free); the rest runs detached from any reader and reports
 * through the stream's events. A live order whose outcome is not known (venue_a:
 * the execution service has not reported it in time; venue_b: the venue's
 * answer to it was lost) ends its stream with `outcome_unknown`, still
 * `submitted` with its hold; {@link reconcile} (run every so often by
 * {@link startReconciler}) ends it once the venue says, and ends the live
 * orders of both venues whose process died before it recorded the venue's
 * answer (see {@link OrderReconciler}).
 */
export class ExecutionService {
  private readonly inflight = new Set<Promise<unknown>>();
  /** Live orders whose runner is following them in this process (the reconciler leaves them alone). */
  private readonly running = new Set<string>();
  private readonly reconciler: OrderReconciler;
  private readonly reconcileSchedule: PeriodicTask;

  constructor(private readonly deps: ExecutionServiceDeps) {
    this.reconciler = new OrderReconciler({
      recorder: deps.recorder,
      client: deps.client,
      venueB: deps.venueBOrders,
      staleMs: deps.staleOrderMs,
      fees: deps.fees,
      notify: deps.notify,
      now: deps.now,
      marketTitle: async (key) => (await deps.markets.marketsByIds([key]))[0]?.title ?? key,
      logger: deps.logger,
    });
    this.reconcileSchedule = new PeriodicTask(
      () => this.reconcile(),
      (err: unknown) => this.deps.logger?.error({ err }, 'reconciling live orders failed'),
    );
  }

  /**
   * Asks the venues about the live orders whose outcome is not known (see
   * {@link OrderReconciler}) and ends those they report final, each exactly
   * once. Returns how many it ended.
   */
  reconcile(): Promise<number> {
    return this.reconciler.run([...this.running]);
  }

  /**
   * Runs {@link reconcile} now (what a stopped process left goes at once), then every `everyMs` (0: never,
   * not even now) until {@link stop}.
   */
  startReconciler(everyMs: number): void {
    this.reconcileSchedule.start(everyMs);
    if (everyMs > 0) this.reconcileSchedule.runNow();
  }

  /** Stops the reconciler, waiting for its run (another process may take it over). */
  async stopReconciler(): Promise<void> {
    await this.reconcileSchedule.stop();
  }

  /** Shutdown: stops the reconciler (waiting for its run), then waits for the orders in flight. */
  async stop(): Promise<void> {
    await this.reconcileSchedule.stop();
    await this.drain();
  }

  /**
   * Runs an order for `principal` (null: an anonymous simulation, nothing
   * stored). Live mode needs `principal.live` (a verified wallet-auth token,
   * or trusted server code); on a simulated venue it is a 409 in production
   * and runs in the paper account elsewhere (see `modeOnVenue`).
   */
  async run(
    raw: ExecuteRequest,
    principal: ExecutionPrincipal | null,
    opts: RunOptions = {},
  ): Promise<ExecutionStream> {
    const checked = checkExecuteRequest(raw);
    if (checked.mode === 'live' && !principal?.live)
      throw AppError.unauthorized('live mode needs the wallet-auth token');
    const market = await lookUpMarket(this.deps, checked);
    const req = { ...checked, mode: modeOnVenue(this.deps.simulated, market.venue, checked.mode) };
    // A whole-position sell takes the position's exact size, whatever the venue's order precision.
    const sizeMicros =
      opts.exactSizeMicros !== undefined && toMicros(req.size) === opts.exactSizeMicros
        ? opts.exactSizeMicros
        : sizeMicrosFor(market.venue, req.size);
    if (req.mode === 'live' && market.venue === 'venue_a' && !this.deps.client) {
      throw AppError.unavailable('venue_a live execution is not configured');
    }
    if (req.mode === 'live' && market.venue === 'venue_b' && this.deps.venueBOrders?.ready === false) {
      throw AppError.unavailable('venue_b live orders need VENUE_B_API_KEY_ID and VENUE_B_PRIVATE_KEY');
    }
    const key = principal ? IdempotencyService.check(opts.idempotencyKey) : undefined;
    const draft: OrderDraft = {
      id: randomUUID(),
      userId: principal?.userId ?? '',
      venue: market.venue,
      marketKey: market.id,
      venueMarketId: market.marketId,
      coreEventId: market.eventId,
      outcome: req.outcome,
      side: req.side,
      orderType: req.orderType,
      mode: req.mode,
      limitPriceMicros: req.limitPrice === undefined ? null : toMicros(req.limitPrice),
      requestedSizeMicros: sizeMicros,
      source: opts.source ?? 'execute',
      positionId: opts.positionId ?? null,
      idempotencyKey: key ?? null,
    };
    const plan: OrderPlan = {
      draft,
      anonymous: principal === null,
      request: req,
      marketTitle: market.title,
      walletToken: principal?.walletToken,
      ...(sizeMicros === 0n && { rejectReason: 'size is 0: nothing to execute' }),
    };
    if (key === undefined) return this.launch(plan);
    const input = opts.idempotencyInput ?? { request: req, source: draft.source, positionId: draft.positionId };
    return this.startOnce(plan, { userId: draft.userId, operation: `execution.${draft.source}`, key, input });
  }

  /**
   * Sells from one of the caller's positions (default: all of it that open
   * sells do not hold, at its exact size) through {@link run}. Unknown or
   * someone else's position: 404; more than is free: 400.
   */
  async sell(
    positionId: string,
    raw: SellRequest,
    principal: ExecutionPrincipal,
    opts: RunOptions = {},
  ): Promise<ExecutionStream> {
    const body = checkSellRequest(raw);
    if (body.mode === 'live' && !principal.live) throw AppError.unauthorized('live mode needs the wallet-auth token');
    const key = IdempotencyService.check(opts.idempotencyKey);
    // What a retry must repeat: the position and the body (the size may be "all of it").
    const idempotencyInput = { positionId, sell: body };
    let sell: { request: ExecuteRequest; exactSizeMicros?: bigint };
    try {
      sell = await positionSellRequest(this.deps.prisma, positionId, body, principal.userId);
    } catch (err) {
      // A retry after the sell went through finds the position smaller or closed: it replays.
      const stored =
        key !== undefined && err instanceof AppError && err.code === 'bad_request'
          ? await this.storedOutcome({
              userId: principal.userId,
              operation: 'execution.position_sell',
              key,
              input: idempotencyInput,
            })
          : null;
      if (stored) return this.replayCurrent(stored);
      throw err;
    }
    if (sell.request.mode === 'live' && !principal.live)
      throw AppError.unauthorized('live mode needs the wallet-auth token');
    if (sell.request.mode === 'live') checkLivePositionSell(this.deps.simulated, sell.request.venue!);
    return this.run(sell.request, principal, {
      ...opts,
      source: 'position_sell',
      positionId,
      idempotencyInput,
      exactSizeMicros: sell.exactSizeMicros,
    });
  }

  /**
   * The stored outcome of a key, if its first request finished (same body), or the outcome of the
   * order it placed when its process died before storing one; null when there is neither.
   */
  private async storedOutcome(call: {
    userId: string;
    operation: string;
    key: string;
    input: unknown;
  }): Promise<StoredOutcome | null> {
    const notStored = new Error('not stored');
    try {
      // Claims nothing for good: with neither an answer nor an order the work fails at once and the key is freed.
      return await this.deps.idempotency.run<StoredOutcome>(call, async () => {
        const prior = await this.deps.recorder.byIdempotencyKey(call.userId, call.key);
        if (!prior) throw notStored;
        return { events: eventsFromOrder(prior, new Date(this.deps.now())) };
      });
    } catch (err) {
      if (err === notStored) return null;
      throw err;
    }
  }

  /** Waits for every execution in flight (shutdown: before the database closes). */
  async drain(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /** Pre-stream work (live: the order row, the hold, venue_a's submit), then the rest detached. */
  private async launch(plan: OrderPlan): Promise<ExecutionStream & { done: Promise<ExecutionEvent[]> }> {
    // Inside the key's claim (when there is one): a retry after the sell replays instead of failing here.
    if (!plan.anonymous && plan.draft.side === 'sell' && plan.draft.requestedSizeMicros > 0n)
      await checkHolding(this.deps.prisma, plan.draft);
    const live =
      plan.request.mode === 'live' && plan.rejectReason === undefined ? await this.openLive(plan) : undefined;
    const log = new EventLog<ExecutionEvent>();
    const done = new OrderRun(plan, this.deps, log, live).execute();
    this.track(done);
    if (live && plan.draft.venue === 'venue_a') this.follow(plan, live, done);
    else if (live) this.followWhile(plan.draft.id, done);
    return {
      orderId: plan.draft.id,
      replayed: false,
      events: () => log.reader(),
      // An unexpected error still ends the log with a `failed` or `outcome_unknown` event: that is the outcome
      // (a rejection nobody awaits would take the process down).
      outcome: done.then(
        (events) => events[events.length - 1],
        (err: unknown) => {
          const last = log.snapshot().at(-1);
          if (last === undefined) throw err;
          return last;
        },
      ),
      done,
    };
  }

  /**
   * With an Idempotency-Key: the first request claims the key before its
   * stream opens and stores its event sequence when it ends; a retry replays
   * that sequence (a different body, or a first request still running, is a
   * 409). A failure before the stream opens, or an unexpected one, frees the key.
   */
  private async startOnce(
    plan: OrderPlan,
    call: { userId: string; operation: string; key: string; input: unknown },
  ): Promise<ExecutionStream> {
    let ready!: (s: ExecutionStream) => void;
    const started = new Promise<ExecutionStream>((resolve) => (ready = resolve));
    const stored = this.deps.idempotency.run<StoredOutcome>(call, async () => {
      // The key was claimed but no answer stored (the first request's process stopped): its order answers.
      const prior = await this.deps.recorder.byIdempotencyKey(call.userId, call.key);
      if (prior) {
        const recovered = { events: eventsFromOrder(prior, new Date(this.deps.now())) };
        ready(this.replay(recovered));
        return recovered;
      }
      const s = await this.launch(plan);
      // The stream ends only once its answer is stored, so a retry sent after it always replays.
      ready(endingAfter(s, () => stored));
      return { events: await s.done };
    });
    // Its failures reach the caller through the race (before streaming) or the stream and `track` (after).
    stored.catch(() => undefined);
    return Promise.race([started, stored.then((o) => this.replayCurrent(o))]);
  }

  /**
   * A stored outcome that ended `outcome_unknown` is replayed with what became
   * of the order since (its fills and `completed`, or `failed`), appended with
   * the sequence going on, so the first run's ids stay as they were.
   */
  private async replayCurrent(o: StoredOutcome): Promise<ExecutionStream> {
    const last = o.events[o.events.length - 1];
    if (last?.event !== 'outcome_unknown') return this.replay(o);
    const row = await this.deps.prisma.order.findUnique({
      where: { id: last.orderId },
      include: { fills: { orderBy: { seq: 'asc' } } },
    });
    if (!row || row.state === 'pending' || row.state === 'submitted') return this.replay(o);
    const later = eventsFromOrder(row, new Date(this.deps.now()))
      .slice(1)
      .map((e, i) => ({ ...e, seq: last.seq + 1 + i, id: `${row.id}:${last.seq + 1 + i}` }));
    return this.replay({ events: [...o.events, ...later] });
  }

  private replay(o: StoredOutcome): ExecutionStream {
    const events = o.events.map(reviveEvent);
    const last = events[events.length - 1];
    const log = EventLog.of(events);
    return { orderId: last.orderId, replayed: true, events: () => log.reader(), outcome: Promise.resolve(last) };
  }

  /** While its runner follows a live order the reconciler leaves it alone. */
  private followWhile(id: string, done: Promise<unknown>): void {
    this.running.add(id);
    void done.finally(() => this.running.delete(id)).catch(() => undefined);
  }

  /** While its runner follows a venue_a order the reconciler leaves it alone; handed over, it gets what it needs. */
  private follow(plan: OrderPlan, live: LiveStart, done: Promise<ExecutionEvent[]>): void {
    const id = plan.draft.id;
    const handOver = () => this.reconciler.remember(id, { submit: live.submit, walletToken: plan.walletToken });
    this.running.add(id);
    void done
      .then((events) => {
        if (events[events.length - 1]?.event === 'outcome_unknown') handOver();
      }, handOver)
      .finally(() => this.running.delete(id));
  }

  private async openLive(plan: OrderPlan): Promise<LiveStart> {
    const d = plan.draft;
    const hold = d.side === 'buy' ? this.maxCost(d) : 0n;
    let order;
    try {
      order = await this.deps.recorder.open(d, hold);
    } catch (err) {
      if (err instanceof PositionHeldError) throw heldRefusal(err, d.outcome);
      if (!(err instanceof InsufficientFundsError)) throw err;
      const balance = await this.deps.recorder.balance(d.userId);
      throw AppError.badRequest(
        'size',
        `insufficient balance: the order may cost up to ${usdText(hold)}, held until it ends; ` +
          `${usdText(balance)} available`,
      );
    }
    if (d.venue !== 'venue_a') return { order };
    const submit = submitRequestOf(d, plan.request);
    let first;
    try {
      first = await this.deps.client!.submit(submit, plan.walletToken);
    } catch (err) {
      // No answer, but the service may have the order: the stream opens and the runner asks again.
      if (outcomeUnknown(err))
        return { order: await this.deps.recorder.submitted(d.id, null), submit, submitProblem: err.message };
      // Refused before streaming (502): the order fails and frees its Idempotency-Key in the same transaction.
      await this.deps.recorder.end(
        d,
        true,
        'failed',
        err instanceof AppError ? err.message : 'execution service failed',
        null,
        { releaseKey: true },
      );
      throw err;
    }
    return { order: await this.deps.recorder.submitted(d.id, first.id), submit, first };
  }

  /**
   * The most a live buy can cost: size × (limit price, else $1) plus the fees
   * of that size at the dearest price (p = 0.5) and a rounding allowance per
   * possible fill (a cent per contract on venue_b, a micro-dollar per
   * hundredth of a contract on venue_a).
   */
  private maxCost(d: OrderDraft): bigint {
    const price = d.limitPriceMicros ?? MICRO;
    const notional = (price * d.requestedSizeMicros + MICRO - 1n) / MICRO;
    const fee = feeOf(d.venue, { price: MICRO / 2n, size: d.requestedSizeMicros }, this.deps.fees);
    const slack = d.venue === 'venue_b' ? (d.requestedSizeMicros / MICRO) * CENT : d.requestedSizeMicros / 10_000n;
    return notional + fee + slack;
  }

  private track(p: Promise<unknown>): void {
    const settled = p.then(
      () => undefined,
      (err: unknown) => this.deps.logger?.error({ err }, 'execution failed'),
    );
    this.inflight.add(settled);
    void settled.finally(() => this.inflight.delete(settled));
  }
}
