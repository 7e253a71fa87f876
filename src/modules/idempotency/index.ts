export { IdempotencyService, type IdempotentCall } from './idempotency.service';
