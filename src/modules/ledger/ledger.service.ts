import { Prisma, type PrismaClient } from '../../db/generated/client';
import type { SqlClient } from '../../db/raw-sql';
import {
  InsufficientFundsError,
  LEDGER_CURRENCY,
  type Balance,
  type BalanceListener,
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
  private readonly balanceListeners: BalanceListener[] = [];

  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Tells `listener` of every balance a movement moves, with its figures after the movement, in the
   * movement's transaction (the account streams announce it once that commits). Costs no statement:
   * the balance is read back by the statement that moves it.
   */
  watchBalances(listener: BalanceListener): void {
    this.balanceListeners.push(listener);
  }

  private moved(db: SqlClient, balance: Balance): void {
    for (const listener of this.balanceListeners) listener.balanceMoved(db, balance);
  }

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
      const [credited] = await db.$queryRaw<{ available: bigint; held: bigint }[]>`
        INSERT INTO "LedgerBalance" ("userId", "currency", "available", "held", "updatedAt")
        VALUES (${m.userId}, ${currency}, ${m.available}, ${m.held}, now())
        ON CONFLICT ("userId", "currency") DO UPDATE SET
          "available" = "LedgerBalance"."available" + EXCLUDED."available",
          "held" = "LedgerBalance"."held" + EXCLUDED."held",
          "updatedAt" = EXCLUDED."updatedAt"
        RETURNING "available", "held"`;
      this.moved(db, balanceOf(m.userId, currency, credited));
      return true;
    }
    // A debit: the row lock makes the condition hold against concurrent debits
    // (PostgreSQL re-checks it on the locked, newest row version).
    const [debited] = await db.$queryRaw<{ available: bigint; held: bigint }[]>`
      UPDATE "LedgerBalance" SET
        "available" = "available" + ${m.available},
        "held" = "held" + ${m.held},
        "updatedAt" = now()
      WHERE "userId" = ${m.userId} AND "currency" = ${currency}
        AND "available" + ${m.available} >= 0 AND "held" + ${m.held} >= 0
      RETURNING "available", "held"`;
    if (!debited) throw new InsufficientFundsError(m.userId, currency);
    this.moved(db, balanceOf(m.userId, currency, debited));
    return true;
  }

  /**
   * A batch's movements as the CTEs `entries` (the entries inserted: a key posted before is
   * skipped), `net` (their sum and count) and `moved` (the balance row after them: no row when the
   * sum would take a figure below zero, or lowers one of a balance this statement's snapshot does
   * not hold), for {@link postBatch} and for a caller's own statement that also writes other rows.
   */
  batchCtes(
    userId: string,
    currency: string,
    movements: readonly Omit<LedgerMovement, 'userId' | 'currency'>[],
  ): Prisma.Sql {
    if (movements.length === 0) throw new Error('a ledger batch needs a movement');
    for (const m of movements) {
      if (!KIND.test(m.kind)) throw new Error(`ledger kind ${m.kind} must be a lowercase word`);
      if (m.available === 0n && m.held === 0n) throw new Error('a ledger movement must move something');
    }
    const rows = Prisma.join(
      movements.map((m) => {
        const { kind, available, held, reference, idempotencyKey } = m;
        return Prisma.sql`(${userId}, ${currency}, ${kind}, ${available}, ${held}, ${reference}, ${idempotencyKey})`;
      }),
    );
    // The balance row is moved by an upsert: ON CONFLICT DO UPDATE finds a row another transaction
    // committed after this statement's snapshot (the first paper trades of one user, concurrently).
    // A new row is only proposed when the sum takes nothing below zero, and with the figures held at
    // zero or more (the check constraint is tested on the proposal, before the conflict); the update
    // applies the real sum only when the row stays at or above zero (on its locked, newest version).
    return Prisma.sql`entries AS (
        INSERT INTO "LedgerEntry" ("userId", "currency", "kind", "availableDelta", "heldDelta", "reference",
        "idempotencyKey")
        VALUES ${rows}
        ON CONFLICT ("idempotencyKey") DO NOTHING
        RETURNING "idempotencyKey", "availableDelta", "heldDelta"
      ), net AS (
        SELECT count(*)::int AS "n", COALESCE(sum("availableDelta"), 0)::bigint AS "available",
        COALESCE(sum("heldDelta"), 0)::bigint AS "held" FROM entries
      ), moved AS (
        INSERT INTO "LedgerBalance" ("userId", "currency", "available", "held", "updatedAt")
        SELECT ${userId}, ${currency}, GREATEST(net."available", 0), GREATEST(net."held", 0), now() FROM net
        WHERE net."n" > 0 AND ((net."available" >= 0 AND net."held" >= 0) OR EXISTS (
          SELECT 1 FROM "LedgerBalance" WHERE "userId" = ${userId} AND "currency" = ${currency}))
        ON CONFLICT ("userId", "currency") DO UPDATE SET
          "available" = "LedgerBalance"."available" + (SELECT "available" FROM net),
          "held" = "LedgerBalance"."held" + (SELECT "held" FROM net),
          "updatedAt" = EXCLUDED."updatedAt"
        WHERE "LedgerBalance"."available" + (SELECT "available" FROM net) >= 0
          AND "LedgerBalance"."held" + (SELECT "held" FROM net) >= 0
        RETURNING "available", "held"
      )`;
  }

  /**
   * Tells the balance listeners of a balance a caller's own statement moved ({@link batchCtes}):
   * `db` is that statement's client, whose commit hooks announce it.
   */
  announce(db: SqlClient, userId: string, currency: string, figures: { available: bigint; held: bigint }): Balance {
    const balance = balanceOf(userId, currency, figures);
    this.moved(db, balance);
    return balance;
  }

  /**
   * Posts several movements of one user and currency in the caller's transaction, in ONE
   * statement: the entries not posted before (by key), then the balance row moved by their sum
   * and read back. The balance is checked once, after all of them: the same as posting them one
   * by one in order when every movement that raises a figure comes before those that lower it
   * (a hold release or a grant, then the debits). Throws {@link InsufficientFundsError} as
   * {@link post} does; `posted[i]` is false for a movement whose key was posted before.
   */
  async postBatch(
    db: SqlClient,
    userId: string,
    currency: string,
    movements: readonly Omit<LedgerMovement, 'userId' | 'currency'>[],
  ): Promise<{ posted: boolean[]; balance: Balance }> {
    if (movements.length === 0) return { posted: [], balance: await this.balance(userId, currency, db) };
    const [r] = await db.$queryRaw<
      {
        keys: string[] | null;
        n: number;
        netAvailable: bigint;
        netHeld: bigint;
        available: bigint | null;
        held: bigint | null;
      }[]
    >`
      WITH ${this.batchCtes(userId, currency, movements)}
      SELECT (SELECT array_agg("idempotencyKey") FROM entries) AS "keys", net."n", net."available" AS "netAvailable",
      net."held" AS "netHeld", moved."available", moved."held"
      FROM net LEFT JOIN moved ON true`;
    const keys = new Set(r.keys ?? []);
    const posted = movements.map((m) => keys.has(m.idempotencyKey));
    if (r.n === 0) return { posted, balance: await this.balance(userId, currency, db) };
    if (r.available !== null && r.held !== null) {
      const balance = balanceOf(userId, currency, r as { available: bigint; held: bigint });
      this.moved(db, balance);
      return { posted, balance };
    }
    // Not moved: short, or no row in this statement's snapshot while the sum lowers a figure (one
    // committed since is seen by a statement of its own, as post()'s debit sees it).
    const [again] = await db.$queryRaw<{ available: bigint; held: bigint }[]>`
      UPDATE "LedgerBalance" SET
        "available" = "available" + ${r.netAvailable}::bigint,
        "held" = "held" + ${r.netHeld}::bigint,
        "updatedAt" = now()
      WHERE "userId" = ${userId} AND "currency" = ${currency}
        AND "available" + ${r.netAvailable}::bigint >= 0 AND "held" + ${r.netHeld}::bigint >= 0
      RETURNING "available", "held"`;
    if (!again) throw new InsufficientFundsError(userId, currency);
    const balance = balanceOf(userId, currency, again);
    this.moved(db, balance);
    return { posted, balance };
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
  async balance(userId: string, currency = LEDGER_CURRENCY, db: SqlClient = this.prisma): Promise<Balance> {
    const [row] = await db.$queryRaw<{ available: bigint; held: bigint }[]>`
      SELECT "available", "held" FROM "LedgerBalance" WHERE "userId" = ${userId} AND "currency" = ${currency}`;
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

/** A balance row's figures as read back by a statement (bigint, or numeric text from a raw row). */
function balanceOf(userId: string, currency: string, row: { available: bigint; held: bigint }): Balance {
  return { userId, currency, available: BigInt(row.available), held: BigInt(row.held) };
}
