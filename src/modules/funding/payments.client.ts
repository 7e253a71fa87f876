import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AppConfig } from '../../config';
import { JsonHttpClient } from '../../upstreams/json-http';
import type { Chain } from '../wallets';
import { ServiceToken } from '../../kernel';

export interface FundingRequest {
  userId: string;
  /** Decimal string in `currency` ("25.50"). */
  amount: string;
  currency: string;
  /** Forwarded as the upstream's `Idempotency-Key`. */
  idempotencyKey: string;
}

export interface PayoutRequest {
  withdrawalId: string;
  userId: string;
  chain: Chain;
  destination: string;
  /** USDC, decimal string. */
  amount: string;
}

export type PayoutStatus = 'pending' | 'paid' | 'failed';

/** The payment processor: onramp sessions, fiat payment intents and USDC payouts. */
export interface PaymentsClient {
  createOnrampSession(r: FundingRequest): Promise<{ id: string; url: string }>;
  createPaymentIntent(r: FundingRequest): Promise<{ id: string; clientSecret: string }>;
  /** Idempotent per withdrawal id. `paid`/`failed` answers settle at once; `pending` waits for a webhook. */
  createPayout(r: PayoutRequest): Promise<{ id: string; status: PayoutStatus; failureReason?: string }>;
}

const id = z.string().min(1).max(200);

/**
 * The processor over HTTP (bearer API key, `Idempotency-Key` on every create):
 * `POST /v1/onramp/sessions` → `{ id, url }`, `POST /v1/payment_intents` →
 * `{ id, client_secret }`, `POST /v1/payouts` → `{ id, status, failure_reason? }`.
 */
/** The payment processor client funding and withdrawals share. */
export const PAYMENTS_CLIENT = new ServiceToken<PaymentsClient>('funding.payments');

export class HttpPaymentsClient implements PaymentsClient {
  constructor(private readonly http: JsonHttpClient) {}

  async createOnrampSession(r: FundingRequest) {
    return this.http.request(
      {
        method: 'POST',
        path: '/v1/onramp/sessions',
        body: {
          customer: r.userId,
          source_amount: r.amount,
          source_currency: r.currency,
          destination_currency: 'usdc',
        },
        idempotencyKey: r.idempotencyKey,
      },
      z.object({ id, url: z.url() }),
    );
  }

  async createPaymentIntent(r: FundingRequest) {
    const a = await this.http.request(
      {
        method: 'POST',
        path: '/v1/payment_intents',
        body: { customer: r.userId, amount: r.amount, currency: r.currency },
        idempotencyKey: r.idempotencyKey,
      },
      z.object({ id, client_secret: z.string().min(1).max(500) }),
    );
    return { id: a.id, clientSecret: a.client_secret };
  }

  async createPayout(r: PayoutRequest) {
    const a = await this.http.request(
      {
        method: 'POST',
        path: '/v1/payouts',
        body: {
          reference: r.withdrawalId,
          customer: r.userId,
          network: r.chain,
          destination: r.destination,
          amount: r.amount,
          currency: 'usdc',
        },
        idempotencyKey: `payout:${r.withdrawalId}`,
      },
      z.object({ id, status: z.enum(['pending', 'paid', 'failed']), failure_reason: z.string().max(500).optional() }),
    );
    return { id: a.id, status: a.status, failureReason: a.failure_reason };
  }
}

function digest(...parts: string[]): string {
  return createHash('sha256').update(parts.join('|')).digest('hex').slice(0, 24);
}

/**
 * The simulated processor: ids derived from the idempotency keys (so retries
 * meet the same object), payouts paid at once. It sends no webhooks; deliver
 * signed events to /webhooks/payments to complete onramps and intents.
 */
export class SimulatedPaymentsClient implements PaymentsClient {
  async createOnrampSession(r: FundingRequest) {
    const sid = `os_${digest('onramp', r.userId, r.idempotencyKey)}`;
    return { id: sid, url: `https://payments.invalid/onramp/${sid}` };
  }

  async createPaymentIntent(r: FundingRequest) {
    const pid = `pi_${digest('intent', r.userId, r.idempotencyKey)}`;
    return { id: pid, clientSecret: `${pid}_secret_${digest('secret', pid)}` };
  }

  async createPayout(r: PayoutRequest) {
    return { id: `po_${digest('payout', r.withdrawalId)}`, status: 'paid' as const };
  }
}

export function createPaymentsClient(config: AppConfig): PaymentsClient {
  const u = config.upstreams.payments;
  if (!u.url) return new SimulatedPaymentsClient();
  return new HttpPaymentsClient(
    new JsonHttpClient('payment processor', { ...u, url: u.url }, config.upstreams.timeoutMs),
  );
}
