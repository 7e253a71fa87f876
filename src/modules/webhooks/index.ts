export { PaymentWebhookService, type PaymentWebhookAck } from './payment-webhook.service';
export {
  ANNOUNCE_LEASE_MS,
  ANNOUNCE_SWEEP_MS,
  IndexerWebhookService,
  type FillBatchAck,
  type IndexerWebhookOptions,
} from './indexer.service';
export { OutcomeTokenIndex, outcomeTokenId } from './outcome-tokens';
export { signPaymentPayload, verifyPaymentSignature, SIGNATURE_TOLERANCE_SECONDS } from './payment-signature';
export { PAYMENT_EVENT_KINDS } from './payment-events';
export type { OrderFilled } from './order-filled';
export * from './webhooks.limits';
