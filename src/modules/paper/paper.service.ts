import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../../db/generated/client';
import { PAPER_CURRENCY, type Balance, type LedgerDb, type LedgerService } from '../ledger';
import { microsToNumber } from '../../money';
import type { PaperAccountView } from './paper.models';

const KINDS = { grant: 'paper_grant', reset: 'paper_reset' } as const;

/**
 * Paper trading: a user's simulated orders settle against a paper balance
 * (ledger currency {@link PAPER_CURRENCY}) and paper positions (`mode =
 * simulation`), never against the USD balance that funds withdrawals, and
 * charge no fee that earns rewards. The starting balance is granted on the
 * first paper trade (a ledger movement, once per user); a reset puts the
 * balance back to it and closes every paper position.
 */
export class PaperAccounts {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly ledger: LedgerService,
    private readonly startingMicros: bigint,
  ) {}

  /** In the caller's transaction: grants the starting balance unless it was granted before. */
  async open(db: LedgerDb, userId: string): Promise<void> {
    const grant = this.grant(userId);
    if (grant) await this.ledger.post(db, { userId, currency: PAPER_CURRENCY, ...grant });
  }

  /**
   * The movement of {@link open} (none with a starting balance of 0), for a caller that posts it
   * with its own movements in one batch (`LedgerService.postBatch`, currency {@link PAPER_CURRENCY}).
   */
  grant(userId: string) {
    if (this.startingMicros === 0n) return undefined;
    return {
      kind: KINDS.grant,
      available: this.startingMicros,
      held: 0n,
      reference: `paper:${userId}`,
      idempotencyKey: `paper_grant:${userId}`,
    };
  }

  /** The paper balance; before the first paper trade, the starting balance (nothing is written). */
  async balance(userId: string, db: LedgerDb = this.prisma): Promise<Balance> {
    const row = await db.ledgerBalance.findUnique({
      where: { userId_currency: { userId, currency: PAPER_CURRENCY } },
    });
    return {
      userId,
      currency: PAPER_CURRENCY,
      available: row?.available ?? this.startingMicros,
      held: row?.held ?? 0n,
    };
  }

  async account(userId: string): Promise<PaperAccountView> {
    const [balance, openPositions] = await Promise.all([
      this.balance(userId),
      this.prisma.position.count({ where: { userId, mode: 'simulation', status: 'open' } }),
    ]);
    return this.view(balance, openPositions);
  }

  /**
   * Back to the start, in one transaction: the balance becomes the starting
   * balance again (a `paper_reset` movement of the difference) and the paper
   * positions go; paper orders stay as history. Repeating it changes nothing.
   */
  async reset(userId: string): Promise<PaperAccountView> {
    const balance = await this.prisma.$transaction(async (tx) => {
      await this.open(tx, userId);
      // Serializes against a paper trade settling now: it waits, or this waits for it.
      await tx.$queryRaw`SELECT 1 FROM "LedgerBalance" WHERE "userId" = ${userId} AND "currency" = ${PAPER_CURRENCY}
        FOR UPDATE`;
      const now = await this.balance(userId, tx);
      const delta = this.startingMicros - now.available;
      if (delta !== 0n) {
        await this.ledger.post(tx, {
          userId,
          currency: PAPER_CURRENCY,
          kind: KINDS.reset,
          available: delta,
          held: 0n,
          reference: `paper:${userId}`,
          idempotencyKey: `paper_reset:${userId}:${randomUUID()}`,
        });
      }
      await tx.position.deleteMany({ where: { userId, mode: 'simulation' } });
      return this.balance(userId, tx);
    });
    return this.view(balance, 0);
  }

  private view(b: Balance, openPositions: number): PaperAccountView {
    return {
      currency: 'USD',
      available: microsToNumber(b.available),
      startingBalance: microsToNumber(this.startingMicros),
      openPositions,
    };
  }
}
