import { PeriodicTask } from '../../infra';
import { Prisma, type PrismaClient } from '../../db/generated/client';
import { ownerAlive } from '../../db/process-owner';
import { readOffsetPage } from '../../db/offset-page';
import { AppError } from '../../errors/app-error';
import type { Logger } from '../../http/logger';
import { amountToMicros, microsToDecimal } from '../../money';
import { InsufficientFundsError, LEDGER_KINDS, type LedgerService } from '../ledger';
import { canonicalAddress, type Chain } from '../wallets';
import { FUNDING_LIMITS } from './funding.limits';
import { toWithdrawalView, type OffsetPage, type WithdrawalView } from './funding.models';
import type { IdempotencyService } from '../idempotency/idempotency.service';
import type { PaymentsClient } from './payments.client';
import type { NewNotification } from '../notifications';

export interface WithdrawalRequest {
  amount: number;
  chain: Chain;
  destination: string;
}

/** Who asks for a withdrawal, and how: what decides where it may go and whether it is counted. */
export interface WithdrawalCaller {
  /**
   * The request carried the wallet-auth token (step-up): any address valid for the chain. Without
   * it (the user token), only the caller's verified wallets on the chain (see {@link WithdrawalRules}).
   */
  walletAuth: boolean;
  /** The caller's rate limit: spent only when the request runs, never by an Idempotency-Key replay. */
  admit?: () => Promise<void>;
}

/** Where a withdrawal made with the user token may go. */
export interface WithdrawalRules {
  /**
   * How long (ms) an imported wallet must have been verified before it may be a user-token
   * destination: a stolen user token can import and verify its thief's own address, and this
   * leaves the owner that long to notice. Provisioned wallets (keys held by the service) never wait.
   */
  importCooldownMs: number;
}

/** Names a withdrawal in a processor event: our id (the payout's reference) or the payout id. */
export type PayoutRef = { withdrawalId: string } | { payoutId: string };

/** What {@link WithdrawalsService.finish} did: moved it, found it ended already, or found no such withdrawal (yet). */
export type FinishResult = 'moved' | 'ended' | 'unknown';

/** How the dispatcher claims each withdrawal before it calls the processor. */
export interface DispatchOptions {
  /**
   * How long a claim lasts unless renewed (ms): renewed every third of it while the processor call
   * runs, so only a dispatcher that stopped renewing (a stuck process) loses it when it lapses.
   */
  claimMs: number;
  /** This process: its claims name it, and a claim whose process is gone is taken over at once. */
  owner?: { readonly id: string };
}

/** The claim's owner column, for {@link ownerAlive}. */
const CLAIM_OWNER = Prisma.raw('"Withdrawal"."dispatchOwnerId"');

/** Free for a dispatcher at `now`: never claimed, its claim lapsed, or its claiming process is gone. */
const claimable = (now: Date) => Prisma.sql`("dispatchClaimedUntil" IS NULL OR "dispatchClaimedUntil" < ${now}
  OR ("dispatchOwnerId" IS NOT NULL AND NOT ${ownerAlive(CLAIM_OWNER)}))`;

/**
 * Withdrawals of ledger funds to an on-chain address, as USDC payouts of the
 * payment processor.
 *
 * States: `queued` (requested; the amount is held at once, in the request's
 * transaction) → `processing` (the dispatcher handed it to the processor) →
 * `completed` (payout paid: the hold is settled, the money has left) or
 * `failed` (payout failed: the hold is released to the available balance).
 * The dispatcher drives queued → processing (and straight to an end state when
 * the processor answers one); the processor's `payout.paid` / `payout.failed`
 * webhook events drive processing → completed / failed.
 */
export class WithdrawalsService {
  private readonly schedule = new PeriodicTask(
    () => this.dispatch(),
    (err: unknown) => this.logger?.error({ err }, 'withdrawal dispatch failed'),
  );

  constructor(
    private readonly prisma: PrismaClient,
    private readonly ledger: LedgerService,
    private readonly idempotency: IdempotencyService,
    private readonly payments: PaymentsClient,
    private readonly rules: WithdrawalRules,
    private readonly logger?: Logger,
    /** Told of every state change the dispatcher or a processor event made, after it committed. */
    private readonly onChange?: (userId: string, w: WithdrawalView) => void,
    private readonly dispatching: DispatchOptions = { claimMs: 15_000 },
  ) {}

  /**
   * Queues a withdrawal and holds its amount, in one transaction with the Idempotency-Key's claim
   * (a replay answers the first outcome and spends no rate limit). 400 when it exceeds the
   * available balance, or when a user-token caller names a destination that is not one of their
   * verified wallets on the chain (a refusal holds nothing and leaves the key unused).
   */
  async request(userId: string, r: WithdrawalRequest, by: WithdrawalCaller, key?: string): Promise<WithdrawalView> {
    const micros = amountToMicros(r.amount, FUNDING_LIMITS.withdraw);
    const destination = canonicalAddress(r.chain, r.destination, 'destination');
    const call = { userId, operation: 'funding.withdraw', key, input: r, admit: by.admit };
    try {
      return await this.idempotency.inTransaction(call, async (tx) => {
        if (!by.walletAuth) await this.checkOwnDestination(tx, userId, r.chain, destination);
        const w = await tx.withdrawal.create({ data: { userId, chain: r.chain, destination, amountMicros: micros } });
        await this.ledger.post(tx, {
          userId,
          kind: LEDGER_KINDS.withdrawalHold,
          available: -micros,
          held: micros,
          reference: `withdrawal:${w.id}`,
          idempotencyKey: `withdrawal:${w.id}:hold`,
        });
        return toWithdrawalView(w);
      });
    } catch (err) {
      if (err instanceof InsufficientFundsError) throw AppError.badRequest('amount', 'exceeds the available balance');
      throw err;
    }
  }

  /**
   * A user-token withdrawal goes only to the caller's provisioned wallet on the chain, or to an
   * import they verified at least {@link WithdrawalRules.importCooldownMs} ago; 400 naming
   * `destination` (the route's documented refusal) and what would be accepted otherwise.
   */
  private async checkOwnDestination(
    tx: Prisma.TransactionClient,
    userId: string,
    chain: Chain,
    address: string,
  ): Promise<void> {
    const own = await tx.wallet.findFirst({
      where: { userId, chain, address, verification: 'verified' },
      select: { kind: true, verifiedAt: true },
    });
    if (!own)
      throw AppError.badRequest(
        'destination',
        `is not one of your verified ${chain} wallets; withdraw to one of them (GET /api/wallets), or send the ` +
          'request with the wallet-auth token',
      );
    if (own.kind === 'provisioned' || this.rules.importCooldownMs === 0) return;
    const opensAt = new Date((own.verifiedAt ?? new Date()).getTime() + this.rules.importCooldownMs);
    if (opensAt > new Date())
      throw AppError.badRequest(
        'destination',
        `was verified too recently: user-token withdrawals to it open at ${opensAt.toISOString()}; send the ` +
          'request with the wallet-auth token to withdraw now',
      );
  }

  /** The caller's withdrawals, newest first. */
  async list(userId: string, limit: number, offset: number): Promise<OffsetPage<WithdrawalView>> {
    const where = { userId };
    return readOffsetPage(
      this.prisma,
      { limit, offset },
      (window) => [
        this.prisma.withdrawal.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], ...window }),
        this.prisma.withdrawal.count({ where }),
      ],
      toWithdrawalView,
    );
  }

  /**
   * Hands queued withdrawals to the processor (oldest first); returns how many
   * moved. A processor failure leaves the withdrawal queued for the next round;
   * the payout's idempotency key (the withdrawal id) keeps retries and
   * concurrent dispatchers to one payout. A withdrawal claimed by a dispatcher
   * whose process is gone (it died mid-call) is claimed again here at once; the
   * processor answers the repeated call with the payout it already made.
   */
  async dispatch(limit = 20): Promise<number> {
    const queued = await this.prisma.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "Withdrawal" WHERE "status" = 'queued' AND ${claimable(new Date())}
      ORDER BY "createdAt" ASC, "id" ASC LIMIT ${limit}`;
    let moved = 0;
    for (const { id } of queued) {
      // Claim it first: of several dispatchers (processes) that read it queued, one calls the processor.
      if (!(await this.claim(id))) continue;
      const w = await this.prisma.withdrawal.findUniqueOrThrow({ where: { id } });
      const renewal = this.keepClaim(id);
      let payout: Awaited<ReturnType<PaymentsClient['createPayout']>>;
      try {
        payout = await this.payments.createPayout({
          withdrawalId: w.id,
          userId: w.userId,
          chain: w.chain,
          destination: w.destination,
          amount: microsToDecimal(w.amountMicros),
        });
      } catch (err) {
        this.logger?.warn({ err, withdrawalId: w.id }, 'payout dispatch failed; will retry');
        await this.prisma.withdrawal.updateMany({
          where: { id: w.id, status: 'queued', dispatchOwnerId: this.ownerId },
          data: { dispatchClaimedUntil: null, dispatchOwnerId: null },
        });
        continue;
      } finally {
        clearInterval(renewal);
      }
      const changed = await this.prisma.$transaction(async (tx) => {
        const n = await tx.withdrawal.updateMany({
          where: { id: w.id, status: 'queued' },
          data: { status: 'processing', payoutId: payout.id, dispatchClaimedUntil: null, dispatchOwnerId: null },
        });
        if (n.count === 0) return false;
        if (payout.status === 'paid') await this.finish(tx, { withdrawalId: w.id }, 'completed');
        if (payout.status === 'failed')
          await this.finish(tx, { withdrawalId: w.id }, 'failed', payout.failureReason ?? 'payout failed');
        return true;
      });
      if (changed) {
        moved += 1;
        await this.announce({ withdrawalId: w.id });
      }
    }
    return moved;
  }

  private get ownerId(): string | null {
    return this.dispatching.owner?.id ?? null;
  }

  /**
   * Takes a queued withdrawal for this dispatcher for {@link DispatchOptions.claimMs} (a conditional
   * update: one of several concurrent claims wins); false when a live dispatcher holds it.
   */
  private async claim(id: string): Promise<boolean> {
    const now = new Date();
    const until = new Date(now.getTime() + this.dispatching.claimMs);
    const n = await this.prisma.$executeRaw`
      UPDATE "Withdrawal" SET "dispatchClaimedUntil" = ${until}, "dispatchOwnerId" = ${this.ownerId}
      WHERE "id" = ${id} AND "status" = 'queued' AND ${claimable(now)}`;
    return n === 1;
  }

  /**
   * Renews this dispatcher's claim on `id` every third of {@link DispatchOptions.claimMs} while its
   * processor call runs (the caller clears the returned timer); a failed renewal is logged.
   */
  private keepClaim(id: string): NodeJS.Timeout {
    const { claimMs } = this.dispatching;
    const timer = setInterval(
      () => {
        this.prisma.withdrawal
          .updateMany({
            where: { id, status: 'queued', dispatchOwnerId: this.ownerId },
            data: { dispatchClaimedUntil: new Date(Date.now() + claimMs) },
          })
          .catch((err: unknown) => this.logger?.warn({ err, withdrawalId: id }, 'renewing a dispatch claim failed'));
      },
      Math.ceil(claimMs / 3),
    );
    timer.unref();
    return timer;
  }

  /** Reports a withdrawal's current state to the change listener (call after the change committed). */
  async announce(ref: PayoutRef): Promise<void> {
    if (!this.onChange) return;
    const w = await this.prisma.withdrawal.findFirst({
      where: 'withdrawalId' in ref ? { id: ref.withdrawalId } : { payoutId: ref.payoutId },
    });
    if (w) this.onChange(w.userId, toWithdrawalView(w));
  }

  /**
   * Ends a withdrawal in the caller's transaction: `completed` settles the hold,
   * `failed` releases it. Only a queued or processing withdrawal moves (once:
   * the conditional update locks the row). `unknown` when no withdrawal
   * matches: a payout id the dispatcher has not committed yet, for instance.
   */
  async finish(
    tx: Prisma.TransactionClient,
    ref: PayoutRef,
    to: 'completed' | 'failed',
    reason?: string,
  ): Promise<FinishResult> {
    const w = await tx.withdrawal.findFirst({
      where: 'withdrawalId' in ref ? { id: ref.withdrawalId } : { payoutId: ref.payoutId },
    });
    if (!w) return 'unknown';
    const n = await tx.withdrawal.updateMany({
      where: { id: w.id, status: { in: ['queued', 'processing'] } },
      data: { status: to, failureReason: to === 'failed' ? (reason ?? 'payout failed') : null },
    });
    if (n.count === 0) return 'ended';
    const base = { userId: w.userId, currency: w.currency, reference: `withdrawal:${w.id}` };
    if (to === 'completed') {
      await this.ledger.post(tx, {
        ...base,
        kind: LEDGER_KINDS.withdrawalSettle,
        available: 0n,
        held: -w.amountMicros,
        idempotencyKey: `withdrawal:${w.id}:settle`,
      });
    } else {
      await this.ledger.post(tx, {
        ...base,
        kind: LEDGER_KINDS.withdrawalRelease,
        available: w.amountMicros,
        held: -w.amountMicros,
        idempotencyKey: `withdrawal:${w.id}:release`,
      });
    }
    return 'moved';
  }

  /**
   * Runs {@link dispatch} now (what a dispatcher that stopped left queued goes at once) and then every
   * `everyMs` (0: never, not even now) until {@link stop}.
   */
  start(everyMs: number): void {
    this.schedule.start(everyMs);
    if (everyMs > 0) this.schedule.runNow();
  }

  async stop(): Promise<void> {
    await this.schedule.stop();
  }
}

const WITHDRAWAL_TITLES: Record<WithdrawalView['status'], string> = {
  queued: 'Withdrawal queued',
  processing: 'Withdrawal processing',
  completed: 'Withdrawal completed',
  failed: 'Withdrawal failed',
};

/** The notification telling a user their withdrawal changed state. */
export function withdrawalNotification(userId: string, w: WithdrawalView): NewNotification {
  const amount = `${w.amount.toFixed(2)} ${w.currency}`;
  const body =
    w.status === 'failed'
      ? `Your withdrawal of ${amount} failed (${w.failureReason ?? 'payout failed'}); the amount is back in your ` +
        `balance.`
      : `Your withdrawal of ${amount} to ${w.destination} is ${w.status}.`;
  return {
    userId,
    kind: 'withdrawal',
    title: WITHDRAWAL_TITLES[w.status],
    body,
    data: { withdrawalId: w.id, status: w.status },
  };
}
