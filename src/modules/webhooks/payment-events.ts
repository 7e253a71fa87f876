import { z } from 'zod';
import { FUNDING_LIMITS } from '../funding/funding.limits';
import { MICROS_PER_UNIT, decimalToMicros } from '../../money';

/** Most a success event may credit, micro-units (bigint columns hold far more; a deposit never does). */
export const MAX_CREDIT_MICROS = BigInt(FUNDING_LIMITS.credit.maxUsd) * MICROS_PER_UNIT;

/**
 * The processor event kinds the service acts on. Anything else is stored and
 * acknowledged (200) without effect.
 */
export const PAYMENT_EVENT_KINDS = {
  onrampCompleted: 'onramp.completed',
  onrampFailed: 'onramp.failed',
  intentSucceeded: 'payment_intent.succeeded',
  intentFailed: 'payment_intent.payment_failed',
  payoutPaid: 'payout.paid',
  payoutFailed: 'payout.failed',
} as const;

const text = (max: number) => z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(max);

/** `{ id, type, created?, data: { id, amountReceived?, currency?, reference?, failureReason? } }`. */
export const paymentEventSchema = z.object({
  id: text(255),
  type: text(100),
  created: z.number().int().nonnegative().optional(),
  data: z
    .object({
      /** The processor object: onramp session, payment intent or payout id. */
      id: text(200).optional(),
      /** Success events: USD (or USDC) credited, a decimal string or number. */
      amountReceived: z.union([z.string(), z.number()]).optional(),
      currency: z.string().max(10).optional(),
      /** Payout events: the withdrawal id the service sent as the payout's reference. */
      reference: z.string().max(200).optional(),
      failureReason: z.string().max(500).optional(),
    })
    .passthrough()
    .default({}),
});

export type PaymentEvent = z.infer<typeof paymentEventSchema>;

/** Credited micro-units of a success event, or why they cannot be read. */
export function creditedMicros(e: PaymentEvent): bigint | string {
  const raw = e.data.amountReceived;
  if (raw === undefined) return 'data.amountReceived: is required';
  const micros = decimalToMicros(String(raw));
  if (micros === null || micros <= 0n || micros > MAX_CREDIT_MICROS) {
    return `data.amountReceived: must be a positive decimal of at most ${FUNDING_LIMITS.credit.maxUsd}`;
  }
  const currency = (e.data.currency ?? 'usd').toLowerCase();
  if (currency !== 'usd' && currency !== 'usdc') return 'data.currency: must be usd or usdc';
  return micros;
}
