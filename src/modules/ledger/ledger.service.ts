import type { PrismaClient } from '../../db/generated/client';
import {
  InsufficientFundsError,
  LEDGER_CURRENCY,
  type Balance,
  type LedgerDb,
  type LedgerEntryView,
  type LedgerMovement,
} from './ledger.models';

const KIND = /^[a-z][a-z0-9_]{0,39}$/;

/**
 * The balance ledger every money movement goes through (funding, withdrawals,
 * and later execution and rewards). Entries are append-only; each user's
 * balance row is updated in the same transaction as the entry, so a balance
 * always equals the sum of its entries. Movements are idempotent on their key,
 * and no movement may take `available` or `held` below zero (checked here, and
 * by a database check constraint underneath).
 *
 * Callers post inside their own transaction (`prisma.$transaction(async (tx) =>
 * ledger.post(tx, …))`) so the movement commits or rolls back with their rows.
 */
export class LedgerService {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Posts one movement in the caller's transaction. Returns false when a movement
   * with the same idempotency key was already posted (nothing changes); throws
   * {@link InsufficientFundsError} when a balance would go negative, which must
   * roll the caller's transaction back.
   */
  async post(db: LedgerDb, m: LedgerMovement): Promise<boolean> {
    const currency = m.currency ?? LEDGER_CURRENCY;
    if (!KIND.test(m.kind)) throw new Error(`ledger kind ${m.kind} must be a lowercase word`);
    if (m.available === 0n && m.held === 0n) throw new Error('a ledger movement must move something');
    // The key's unique index serializes concurrent posts of one movement: the
    // second waits for the first to commit, then inserts nothing.
    const inserted = await db.$queryRaw<{ id: bigint }[]>`
      INSERT INTO "LedgerEntry" ("userId", "currency", "kind", "availableDelta", "heldDelta", "reference",
      "idempotencyKey")
      VALUES (${m.userId}, ${currency}, ${m.kind}, ${m.available}, ${m.held}, ${m.reference}, ${m.idempotencyKey})
      ON CONFLICT ("idempotencyKey") DO NOTHING
      RETURNING "id"`;
    if (inserted.length === 0) return false;
    if (m.available >= 0n && m.held >= 0n) {
      await db.$executeRaw`
        INSERT INTO "LedgerBalance" ("userId", "currency", "available", "held", "updatedAt")
        VALUES (${m.userId}, ${currency}, ${m.available}, ${m.held}, now())
        ON CONFLICT ("userId", "currency") DO UPDATE SET
          "available" = "LedgerBalance"."available" + EXCLUDED."available",
          "held" = "LedgerBalance"."held" + EXCLUDED."held",
          "updatedAt" = EXCLUDED."updatedAt"`;
      return true;
    }
    // A debit: the row lock makes the condition hold against concurrent debits
    // (PostgreSQL re-checks it on the locked, newest row version).
    const updated = await db.$executeRaw`
      UPDATE "LedgerBalance" SET
        "available" = "available" + ${m.available},
        "held" = "held" + ${m.held},
        "updatedAt" = now()
      WHERE "userId" = ${m.userId} AND "currency" = ${currency}
        AND "available" + ${m.available} >= 0 AND "held" + ${m.held} >= 0`;
    if (updated === 0) throw new InsufficientFundsError(m.userId, currency);
    return true;
  }

  /** Posts movements in one transaction of their own (all or none). */
  async postAll(movements: readonly LedgerMovement[]): Promise<boolean[]> {
    return this.prisma.$transaction(async (tx) => {
      const out: boolean[] = [];
      for (const m of movements) out.push(await this.post(tx, m));
      return out;
    });
  }

  /** A user's balance (zero when nothing was ever posted). */
  async balance(userId: string, currency = LEDGER_CURRENCY, db: LedgerDb = this.prisma): Promise<Balance> {
    const row = await db.ledgerBalance.findUnique({ where: { userId_currency: { userId, currency } } });
    return { userId, currency, available: row?.available ?? 0n, held: row?.held ?? 0n };
  }

  /** A user's entries, newest first. */
  async entries(
    userId: string,
    opts: { currency?: string; limit: number; offset: number },
  ): Promise<LedgerEntryView[]> {
    return this.prisma.ledgerEntry.findMany({
      where: { userId, currency: opts.currency ?? LEDGER_CURRENCY },
      orderBy: { id: 'desc' },
      skip: opts.offset,
      take: opts.limit,
    });
  }

  /** Whether a movement with this key was posted. */
  async posted(idempotencyKey: string, db: LedgerDb = this.prisma): Promise<boolean> {
    return (await db.ledgerEntry.count({ where: { idempotencyKey } })) > 0;
  }

  /**
   * Balances that differ from the sum of their entries (an audit; empty when the
   * ledger is consistent). Balances without entries and entries without a
   * balance row are both reported.
   */
  async audit(): Promise<
    { userId: string; currency: string; available: bigint; held: bigint; sumAvailable: bigint; sumHeld: bigint }[]
  > {
    return this.prisma.$queryRaw`
      WITH sums AS (
        SELECT "userId", "currency", SUM("availableDelta")::bigint AS "sumAvailable", SUM("heldDelta")::bigint
      AS "sumHeld"
        FROM "LedgerEntry" GROUP BY "userId", "currency"
      )
      SELECT COALESCE(b."userId", s."userId") AS "userId", COALESCE(b."currency", s."currency") AS "currency",
             COALESCE(b."available", 0)::bigint AS "available", COALESCE(b."held", 0)::bigint AS "held",
             COALESCE(s."sumAvailable", 0)::bigint AS "sumAvailable", COALESCE(s."sumHeld", 0)::bigint AS "sumHeld"
      FROM "LedgerBalance" b FULL OUTER JOIN sums s ON s."userId" = b."userId" AND s."currency" = b."currency"
      WHERE COALESCE(b."available", 0) <> COALESCE(s."sumAvailable", 0) OR COALESCE(b."held", 0) <>
      COALESCE(s."sumHeld", 0)`;
  }
}
