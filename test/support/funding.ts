import { randomUUID } from 'node:crypto';
import { PAPER_CURRENCY } from '../../src/modules/ledger/ledger.models';
import { LedgerService } from '../../src/modules/ledger/ledger.service';
import { PaperAccounts } from '../../src/modules/paper/paper.service';
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

/**
 * Sets `userId`'s paper (simulation) balance to `amount` USD: the starting balance is granted, then one paper
 * movement makes up the difference, as a reset does.
 */
export async function setPaperBalance(app: TestApp, userId: string, amount: number | string): Promise<void> {
  const paper = app.services.get(PaperAccounts);
  await app.services.db.prisma.$transaction(async (tx) => {
    await paper.open(tx, userId);
    const { available } = await paper.balance(userId, tx);
    const delta = micros(amount) - available;
    if (delta === 0n) return;
    await app.services.get(LedgerService).post(tx, {
      userId,
      currency: PAPER_CURRENCY,
      kind: 'paper_reset',
      available: delta,
      held: 0n,
      reference: `paper:${userId}`,
      idempotencyKey: `test-paper:${userId}:${randomUUID()}`,
    });
  });
}
