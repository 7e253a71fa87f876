import { signPaymentPayload } from '../../src/modules/webhooks/payment-signature';
import { http, type HttpResult } from './http';

/** How {@link postPaymentEvent} sends an event. */
export interface PaymentDelivery {
  /** The webhook secret the event is signed with. */
  secret: string;
  /** When the processor signs it (ms since the epoch): default now; a pinned clock's time for a pinned app. */
  atMs?: number;
  /** Default `application/json`. */
  contentType?: string;
  /** The `Payment-Signature` value instead of the computed one; `null` sends none. */
  signature?: string | null;
}

/**
 * Posts a payment processor's event to `/webhooks/payments` of the app at `baseUrl` as the
 * processor does: the body (an event object as JSON; a string is sent byte for byte) signed with
 * `secret` in `Payment-Signature` (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`).
 */
export function postPaymentEvent(baseUrl: string, event: unknown, delivery: PaymentDelivery): Promise<HttpResult> {
  const body = typeof event === 'string' ? event : JSON.stringify(event);
  const { secret, atMs = Date.now(), contentType = 'application/json' } = delivery;
  const signature =
    delivery.signature === undefined ? signPaymentPayload(secret, body, Math.floor(atMs / 1000)) : delivery.signature;
  const headers: Record<string, string> = { 'content-type': contentType };
  if (signature !== null) headers['payment-signature'] = signature;
  return http(`${baseUrl}/webhooks/payments`, { method: 'POST', headers, body });
}
