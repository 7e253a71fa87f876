import { randomUUID } from 'node:crypto';
import type { ClientRateLimits } from '../../auth/rate-limits';
import type { PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { Logger } from '../../http/logger';
import { PeriodicTask } from '../../infra';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { InsufficientFundsError } from '../ledger';
import { toMicros, MICROS_PER_UNIT as MICRO } from '../../money';
import { CENT, feeOf } from '../routing/order-book.math';
import { checkExecuteRequest, checkSellRequest, sizeMicrosFor, type CheckedRequest } from './execute-request';
import { principalOf, type ExecutionCaller } from './execution-caller';
import { IdempotentRuns, type ExecutionStream, type LaunchedStream } from './idempotent-runs';
import { PositionHeldError } from './position-rows';
import { checkHolding, heldRefusal, positionSellRequest } from './position-sells';
import { checkLivePositionSell, modeOnVenue, type SimulatedVenues } from './simulated-venues';
import type {
  ExecuteRequest,
  ExecutionEvent,
  ExecutionPrincipal,
  OrderDraft,
  RunOptions,
  SellRequest,
} from './execution.models';
import { EventLog } from './event-log';
import { outcomeUnknown } from './execution-service.client';
import { lookUpMarket, type Catalog } from './market-lookup';
import { OrderReconciler } from './order-reconciler';
import { OrderRun, type LiveStart, type OrderPlan, type RunnerDeps } from './order-runner';
import { submitRequestOf } from './service-outcome';
import { usdText } from '../../money/money';

export type { ExecutionStream } from './idempotent-runs';

/** The rate-limit policy of the simulated orders a caller stores (in the paper account), per user. */
const STORED_SIMULATION_POLICY = 'storedSimulation';

export interface ExecutionServiceDeps extends RunnerDeps, Catalog {
  prisma: PrismaClient;
  idempotency: IdempotencyService;
  /** The simulated venues: live orders on them never settle in USD (see `modeOnVenue`). */
  simulated?: SimulatedVenues;
  /** How long a live order no runner follows (handed over, or its process gone) stays open unasked (ms). */
  staleOrderMs: number;
  /** Per-user limits: the module's `storedSimulation` policy counts each simulated order a caller stores. */
  rateLimits: Pick<ClientRateLimits, 'consume'>;
  logger?: Logger;
}

/**
 * Runs orders (`/execute` and position sells through {@link execute} and
 * {@link sell}; other modules such as copytrading through {@link run}) and
 * streams their progress. Everything that can refuse an order with a status
 * (bad input 400, credentials 401, too many stored simulations 429, execution
 * service not configured 503 or failing at submit 502, a reused
 * Idempotency-Key 409, a live order on a simulated venue in production 409)
 * happens before the stream is returned, in that order of checks: the body
 * first, then the credentials (a 502/503 leaves the Idempotency-Key free);
 * the rest runs detached from any reader and reports
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
  private readonly keyed: IdempotentRuns;

  constructor(private readonly deps: ExecutionServiceDeps) {
    this.keyed = new IdempotentRuns(deps);
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
   * An `/execute` request from `caller`: the body is checked (a 400 before
   * credentials are looked at), then live mode needs the wallet-auth token
   * and a simulation takes the user bearer when one is sent (anonymous: nothing
   * stored); a stored simulation counts against the caller's limit. Then {@link run}.
   */
  async execute(raw: ExecuteRequest, caller: ExecutionCaller, opts: RunOptions = {}): Promise<ExecutionStream> {
    const checked = checkExecuteRequest(raw);
    const principal = await principalOf(caller, checked.mode === 'live' ? 'live' : 'optional');
    if (principal && checked.mode !== 'live')
      await this.deps.rateLimits.consume(STORED_SIMULATION_POLICY, principal.userId);
    return this.start(checked, principal, opts);
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
    return this.start(checkExecuteRequest(raw), principal, opts);
  }

  /** {@link run} past the body's check. */
  private async start(
    checked: CheckedRequest,
    principal: ExecutionPrincipal | null,
    opts: RunOptions,
  ): Promise<ExecutionStream> {
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
    const call = { userId: draft.userId, operation: `execution.${draft.source}`, key, input };
    return this.keyed.once(call, () => this.launch(plan));
  }

  /**
   * Sells from one of `caller`'s positions (default: all of it that open
   * sells do not hold, at its exact size) through {@link run}. The body is
   * checked first (a 400 before credentials are looked at); then live mode
   * needs the wallet-auth token, simulation the user bearer, and no mode
   * (the position's own) either; a sell in simulation counts against the
   * caller's limit. Unknown or someone else's position: 404; more than is free: 400.
   */
  async sell(
    positionId: string,
    raw: SellRequest,
    caller: ExecutionCaller,
    opts: RunOptions = {},
  ): Promise<ExecutionStream> {
    const body = checkSellRequest(raw);
    const need = body.mode === undefined ? 'either' : body.mode === 'live' ? 'live' : 'user';
    const principal = (await principalOf(caller, need))!;
    if (!principal.live) await this.deps.rateLimits.consume(STORED_SIMULATION_POLICY, principal.userId);
    const key = IdempotencyService.check(opts.idempotencyKey);
    // What a retry must repeat: the position and the body (the size may be "all of it").
    const idempotencyInput = { positionId, sell: body };
    let sell: { request: ExecuteRequest; exactSizeMicros?: bigint };
    try {
      sell = await positionSellRequest(this.deps.prisma, positionId, body, principal.userId);
    } catch (err) {
      // A retry after the sell went through finds the position smaller or closed: it replays.
      const replay =
        key !== undefined && err instanceof AppError && err.code === 'bad_request'
          ? await this.keyed.replayOf({
              userId: principal.userId,
              operation: 'execution.position_sell',
              key,
              input: idempotencyInput,
            })
          : null;
      if (replay) return replay;
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

  /** Waits for every execution in flight (shutdown: before the database closes). */
  async drain(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /** Pre-stream work (live: the order row, the hold, venue_a's submit), then the rest detached. */
  private async launch(plan: OrderPlan): Promise<LaunchedStream> {
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
