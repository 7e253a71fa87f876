import type { Prisma, PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { PayoutRef, WithdrawalsService } from '../funding';
import { FUNDING_LIMITS } from '../funding/funding.limits';
import { microsToDecimal } from '../../money';
import { LEDGER_KINDS, type LedgerService } from '../ledger';
import { PAYMENT_EVENT_KINDS as K, creditedMicros, paymentEventSchema, type PaymentEvent } from './payment-events';
import { verifyPaymentSignature } from './payment-signature';

export type PaymentEventOutcome = 'applied' | 'recorded' | 'ignored' | 'unmatched';

export interface PaymentWebhookAck {
  received: true;
  eventId: string;
  /** True when this event id was delivered before and nothing was done again. */
  duplicate: boolean;
  outcome: PaymentEventOutcome;
}

/**
 * The payment processor's webhook. After the signature check, each event is
 * stored under its id in the same transaction as its effects, so a redelivery
 * (at-least-once, or concurrent) finds the id and changes nothing. Success
 * events credit the ledger once per deposit (the ledger key is the deposit's,
 * so even two different success events for one deposit credit once).
 *
 * `unmatched` is not final: an event naming an object not stored yet (a
 * success that overtook its deposit's record, a payout event before the payout
 * id is committed) is applied again when it is redelivered, under the lock of
 * its stored row, until it matches; the effects stay once per deposit or
 * withdrawal.
 */
export class PaymentWebhookService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly ledger: LedgerService,
    private readonly withdrawals: WithdrawalsService,
    private readonly secret: string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** The webhook secret; 500 when none is configured (nothing can be verified). */
  assertConfigured(): string {
    if (!this.secret) throw AppError.notConfigured('webhook secret', 'PAYMENT_WEBHOOK_SECRET');
    return this.secret;
  }

  async receive(payload: string, signature: string | undefined): Promise<PaymentWebhookAck> {
    const secret = this.assertConfigured();
    verifyPaymentSignature(signature, payload, secret, Math.floor(this.now() / 1000));
    let json: unknown;
    try {
      json = JSON.parse(payload);
    } catch {
      throw AppError.badRequest('body', 'malformed JSON');
    }
    const parsed = paymentEventSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw AppError.badRequest(issue.path.join('.') || 'body', issue.message);
    }
    const event = parsed.data;
    const credit = event.type === K.onrampCompleted || event.type === K.intentSucceeded ? creditedMicros(event) : null;
    if (typeof credit === 'string') {
      const [field, problem] = credit.split(': ');
      throw AppError.badRequest(field, problem);
    }
    const ack = await this.prisma.$transaction(async (tx): Promise<PaymentWebhookAck> => {
      // A new id is stored; an id stored `unmatched` is taken again (its row stays locked to the end).
      // `xmax` is set only on a row version written by the update: it tells the two apart.
      const stored = await tx.$queryRaw<{ again: boolean }[]>`
        INSERT INTO "PaymentEvent" ("id", "type", "outcome", "payload")
        VALUES (${event.id}, ${event.type}, 'pending', ${JSON.stringify(json)}::jsonb)
        ON CONFLICT ("id") DO UPDATE SET "outcome" = 'pending', "type" = EXCLUDED."type", "payload" = EXCLUDED."payload"
          WHERE "PaymentEvent"."outcome" = 'unmatched'
        RETURNING (xmax <> 0) AS "again"`;
      if (stored.length === 0) {
        const prior = await tx.paymentEvent.findUniqueOrThrow({ where: { id: event.id }, select: { outcome: true } });
        return { received: true, eventId: event.id, duplicate: true, outcome: prior.outcome as PaymentEventOutcome };
      }
      const { outcome, detail } = await this.apply(tx, event, credit);
      await tx.paymentEvent.update({ where: { id: event.id }, data: { outcome, detail } });
      const again = stored[0].again;
      return { received: true, eventId: event.id, duplicate: again && outcome === 'unmatched', outcome };
    });
    const ref = payoutRef(event);
    if (
      ack.outcome === 'applied' &&
      !ack.duplicate &&
      ref &&
      (event.type === K.payoutPaid || event.type === K.payoutFailed)
    ) {
      await this.withdrawals.announce(ref);
    }
    return ack;
  }

  private async apply(
    tx: Prisma.TransactionClient,
    e: PaymentEvent,
    credit: bigint | null,
  ): Promise<{ outcome: PaymentEventOutcome; detail: string | null }> {
    switch (e.type) {
      case K.onrampCompleted:
      case K.intentSucceeded:
        return this.credit(tx, e, e.type === K.onrampCompleted ? 'onramp' : 'payment_intent', credit!);
      case K.onrampFailed:
      case K.intentFailed: {
        const kind = e.type === K.onrampFailed ? 'onramp' : 'payment_intent';
        if (!e.data.id) return { outcome: 'unmatched', detail: 'no data.id' };
        const f = await tx.fundingTransaction.findUnique({ where: { processorId: e.data.id } });
        if (!f || f.kind !== kind) return { outcome: 'unmatched', detail: `no ${kind} ${e.data.id}` };
        // A late failure never undoes a success.
        await tx.fundingTransaction.updateMany({
          where: { id: f.id, status: 'pending' },
          data: { status: 'failed', failureReason: e.data.failureReason ?? 'payment failed' },
        });
        return { outcome: 'recorded', detail: `funding ${f.id}` };
      }
      case K.payoutPaid:
      case K.payoutFailed: {
        const ref = payoutRef(e);
        if (!ref) return { outcome: 'unmatched', detail: 'no data.reference or data.id' };
        const to = e.type === K.payoutPaid ? 'completed' : 'failed';
        const done = await this.withdrawals.finish(tx, ref, to, e.data.failureReason);
        if (done === 'unknown')
          return {
            outcome: 'unmatched',
            detail: `no withdrawal ${'withdrawalId' in ref ? ref.withdrawalId : `with payout ${ref.payoutId}`}`,
          };
        return done === 'moved'
          ? { outcome: 'applied', detail: `withdrawal ${to}` }
          : { outcome: 'recorded', detail: 'the withdrawal had ended already' };
      }
      default:
        return { outcome: 'ignored', detail: null };
    }
  }

  private async credit(
    tx: Prisma.TransactionClient,
    e: PaymentEvent,
    kind: 'onramp' | 'payment_intent',
    micros: bigint,
  ) {
    if (!e.data.id) return { outcome: 'unmatched' as const, detail: 'no data.id' };
    const f = await tx.fundingTransaction.findUnique({ where: { processorId: e.data.id } });
    if (!f || f.kind !== kind) return { outcome: 'unmatched' as const, detail: `no ${kind} ${e.data.id}` };
    if (micros > BigInt(FUNDING_LIMITS.credit.maxOfRequested) * f.amountMicros) {
      // Thrown inside the transaction: the event is not stored, a corrected delivery can still credit.
      throw AppError.badRequest(
        'data.amountReceived',
        `must be at most ${FUNDING_LIMITS.credit.maxOfRequested} times the deposit's requested ` +
          `${microsToDecimal(f.amountMicros)} ${f.currency}`,
      );
    }
    const applied = await this.ledger.post(tx, {
      userId: f.userId,
      kind: LEDGER_KINDS.deposit,
      available: micros,
      held: 0n,
      reference: `funding:${f.id}`,
      idempotencyKey: `funding:${f.id}:credit`,
    });
    if (applied) {
      await tx.fundingTransaction.update({
        where: { id: f.id },
        data: { status: 'succeeded', creditedMicros: micros, failureReason: null },
      });
    }
    return {
      outcome: 'applied' as const,
      detail: applied ? `credited funding ${f.id}` : `funding ${f.id} was credited before`,
    };
  }
}

/** The withdrawal a payout event names: our id (the payout's reference) or the processor's payout id. */
function payoutRef(e: PaymentEvent): PayoutRef | null {
  return e.data.reference ? { withdrawalId: e.data.reference } : e.data.id ? { payoutId: e.data.id } : null;
}
