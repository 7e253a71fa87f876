import { defineModule, provide } from '../../kernel';
import { IdempotencyService } from './idempotency.service';

/** Idempotency-Key records: funding, withdrawals, reward claims, execution and copytrade take them from here. */
export const idempotencyModule = defineModule({
  name: 'idempotency',
  services: [provide(IdempotencyService, ({ db, now, owner }) => new IdempotencyService(db.prisma, now, owner))],
});
