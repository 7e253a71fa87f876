import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../../db/generated/client';
import { readOffsetPage } from '../../db/offset-page';
import { AppError } from '../../errors/app-error';
import { amountToMicros, MICROS_PER_UNIT } from '../../money';
import { FUNDING_LIMITS, type FiatCurrency } from './funding.limits';
import { toFundingView, type FundingKind, type FundingView, type OffsetPage } from './funding.models';
import type { IdempotencyService } from '../idempotency/idempotency.service';
import type { PaymentsClient } from './payments.client';

/** Fiat micro-units as the processor's decimal text, to the cent ("25.50"). */
function fiatText(micros: bigint): string {
  const cents = micros / (MICROS_PER_UNIT / 100n);
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/**
 * Deposits through the payment processor: crypto onramp sessions and legacy
 * fiat payment intents. Creating one records it as pending; the processor's
 * webhook later credits the ledger (see the webhooks module).
 */
export class FundingService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly payments: PaymentsClient,
    private readonly idempotency: IdempotencyService,
  ) {}

  /**
   * Starts an onramp session. `admit` (the caller's rate limit) runs only when
   * the request does work: a retry that replays a stored answer for its
   * Idempotency-Key is not counted, so it cannot be refused with a 429.
   */
  async onramp(
    userId: string,
    amount: number,
    currency: FiatCurrency,
    key?: string,
    admit?: () => Promise<void>,
  ): Promise<FundingView> {
    const micros = amountToMicros(amount, FUNDING_LIMITS.onramp);
    const call = { userId, operation: 'funding.onramp', key, input: { amount, currency }, admit };
    return this.idempotency.run(call, async () => {
      const s = await this.payments.createOnrampSession({
        userId,
        amount: fiatText(micros),
        currency,
        idempotencyKey: upstreamKey('onramp', userId, key),
      });
      return toFundingView(await this.record(userId, 'onramp', s.id, micros, currency, s.url));
    });
  }

  async paymentIntent(
    userId: string,
    amount: number,
    currency: FiatCurrency,
    key?: string,
    admit?: () => Promise<void>,
  ): Promise<FundingView> {
    const micros = amountToMicros(amount, FUNDING_LIMITS.intent);
    const call = { userId, operation: 'funding.intent', key, input: { amount, currency }, admit };
    return this.idempotency.run(call, async () => {
      const pi = await this.payments.createPaymentIntent({
        userId,
        amount: fiatText(micros),
        currency,
        idempotencyKey: upstreamKey('intent', userId, key),
      });
      return toFundingView(await this.record(userId, 'payment_intent', pi.id, micros, currency, null), pi.clientSecret);
    });
  }

  /** The caller's deposits, newest first. */
  async history(userId: string, limit: number, offset: number): Promise<OffsetPage<FundingView>> {
    const where = { userId };
    return readOffsetPage(
      this.prisma,
      { limit, offset },
      (window) => [
        this.prisma.fundingTransaction.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], ...window }),
        this.prisma.fundingTransaction.count({ where }),
      ],
      (r) => toFundingView(r),
    );
  }

  /** Stores the processor's object once (a retried create returns the same processor id). */
  private async record(
    userId: string,
    kind: FundingKind,
    processorId: string,
    amountMicros: bigint,
    currency: string,
    redirectUrl: string | null,
  ) {
    await this.prisma.fundingTransaction.createMany({
      data: [{ userId, kind, processorId, amountMicros, currency, redirectUrl }],
      skipDuplicates: true,
    });
    const row = await this.prisma.fundingTransaction.findUniqueOrThrow({ where: { processorId } });
    if (row.userId !== userId || row.kind !== kind)
      throw AppError.upstream('payment processor returned an object of another request');
    return row;
  }
}

/** The key the processor sees: the client's (scoped to the user) or a fresh one. */
function upstreamKey(op: string, userId: string, key: string | undefined): string {
  return key === undefined ? `${op}:${randomUUID()}` : `${op}:${userId}:${key}`;
}
