import { randomUUID } from 'node:crypto';
import { LedgerService } from '../../src/modules/ledger/ledger.service';
import type { TestApp } from './app';
import { micros } from './money';

/**
 * Credits `userId`'s available balance with `amount` (USD, see {@link micros}; or
 * micro-units as a bigint) through the ledger, as a settled deposit would: a
 * `deposit` movement, by default with reference `test` under a fresh idempotency key.
 */
export async function fund(
  app: TestApp,
  userId: string,
  amount: number | string | bigint,
  { key = `test-deposit:${userId}:${randomUUID()}`, reference = 'test' }: { key?: string; reference?: string } = {},
): Promise<void> {
  await app.services.get(LedgerService).postAll([
    {
      userId,
      kind: 'deposit',
      available: typeof amount === 'bigint' ? amount : micros(amount),
      held: 0n,
      reference,
      idempotencyKey: key,
    },
  ]);
}
