import type { Database } from '../../../src/db';
import { InsufficientFundsError, LedgerService, type LedgerMovement } from '../../../src/modules/ledger';
import { openTestDatabase } from '../../support/db';
import { allAtOnce, itOnPostgres, oneAfterAnother } from '../../support/modes';
import { prng } from '../../support/prng';

let db: Database;
let ledger: LedgerService;
beforeAll(async () => {
  db = await openTestDatabase();
  ledger = new LedgerService(db.prisma);
});
afterAll(async () => {
  await db.close();
});

let seq = 0;
const move = (userId: string, available: bigint, held: bigint, kind = 'deposit'): LedgerMovement => ({
  userId,
  kind,
  available,
  held,
  reference: `test:${(seq += 1)}`,
  idempotencyKey: `test:${seq}`,
});

describe('LedgerService', () => {
  it('credits, holds, releases and settles; a balance never goes negative', async () => {
    await ledger.postAll([move('u1', 100_000_000n, 0n)]);
    expect(await ledger.balance('u1')).toMatchObject({ available: 100_000_000n, held: 0n });
    await ledger.postAll([move('u1', -30_000_000n, 30_000_000n, 'withdrawal_hold')]);
    await ledger.postAll([move('u1', 0n, -10_000_000n, 'withdrawal_settle')]);
    await ledger.postAll([move('u1', 20_000_000n, -20_000_000n, 'withdrawal_release')]);
    expect(await ledger.balance('u1')).toMatchObject({ available: 90_000_000n, held: 0n });
    await expect(ledger.postAll([move('u1', -90_000_001n, 90_000_001n, 'withdrawal_hold')])).rejects.toBeInstanceOf(
      InsufficientFundsError,
    );
    await expect(ledger.postAll([move('nobody', -1n, 0n, 'fee')])).rejects.toBeInstanceOf(InsufficientFundsError);
    expect(await ledger.balance('u1')).toMatchObject({ available: 90_000_000n, held: 0n });
    expect(await ledger.balance('nobody')).toMatchObject({ available: 0n, held: 0n });
    expect(await ledger.audit()).toEqual([]);
  });

  /** One movement posted three times by `send`, under one idempotency key: applied once. */
  async function postedThrice(userId: string, send: typeof allAtOnce) {
    const m = { ...move(userId, 5_000_000n, 0n), idempotencyKey: `once:${userId}` };
    const results = await send(3, () => ledger.postAll([m]));
    expect(results.flat().filter(Boolean)).toHaveLength(1);
    expect(await ledger.balance(userId)).toMatchObject({ available: 5_000_000n });
  }

  it('applies a movement once per idempotency key', () => postedThrice('u2', oneAfterAnother));

  // postAll is one transaction: PGlite runs them one at a time, so races are PostgreSQL's.
  itOnPostgres('applies a movement once per idempotency key when posted concurrently', () =>
    postedThrice('u2c', allAtOnce),
  );

  it('rolls the whole transaction back when one movement fails', async () => {
    await expect(ledger.postAll([move('u3', 7n, 0n), move('u3', -8n, 0n, 'fee')])).rejects.toBeInstanceOf(
      InsufficientFundsError,
    );
    expect(await ledger.balance('u3')).toMatchObject({ available: 0n, held: 0n });
    expect(await db.prisma.ledgerEntry.count({ where: { userId: 'u3' } })).toBe(0);
  });

  /** Six holds of 3 on a balance of 10, sent by `send`: three fit, three are refused. */
  async function sixHoldsOfThree(userId: string, send: typeof allAtOnce) {
    await ledger.postAll([move(userId, 10n, 0n)]);
    const tries = await send(6, () =>
      ledger.postAll([move(userId, -3n, 3n, 'withdrawal_hold')]).then(
        () => 'applied',
        (err: unknown) => err,
      ),
    );
    expect(tries.filter((t) => t === 'applied')).toHaveLength(3);
    expect(tries.filter((t) => t instanceof InsufficientFundsError)).toHaveLength(3);
    expect(await ledger.balance(userId)).toMatchObject({ available: 1n, held: 9n });
  }

  it('debits never overdraw', () => sixHoldsOfThree('u4', oneAfterAnother));

  itOnPostgres('concurrent debits never overdraw', () => sixHoldsOfThree('u4c', allAtOnce));

  it('keeps every balance equal to the sum of its entries over a randomized sequence', async () => {
    const rand = prng(20261122);
    const users = ['r1', 'r2', 'r3', 'r4'];
    const model = new Map(users.map((u) => [u, { available: 0n, held: 0n }]));
    let refused = 0;
    for (let i = 0; i < 300; i += 1) {
      const u = users[Math.floor(rand() * users.length)];
      const amt = BigInt(1 + Math.floor(rand() * 50_000_000));
      const op = Math.floor(rand() * 5);
      const [a, h, kind] =
        op === 0
          ? [amt, 0n, 'deposit']
          : op === 1
            ? [-amt, amt, 'withdrawal_hold']
            : op === 2
              ? [0n, -amt, 'withdrawal_settle']
              : op === 3
                ? [amt, -amt, 'withdrawal_release']
                : [-amt, 0n, 'fee'];
      const m = move(u, a, h, kind);
      // Replays of an earlier key must change nothing.
      const replay = rand() < 0.1 && i > 0 ? { ...m, idempotencyKey: `test:${seq - 1}` } : m;
      const s = model.get(u)!;
      try {
        const applied = (await ledger.postAll([replay]))[0];
        if (applied) {
          s.available += a;
          s.held += h;
        }
      } catch (err) {
        expect(err).toBeInstanceOf(InsufficientFundsError);
        expect(s.available + a < 0n || s.held + h < 0n).toBe(true);
        refused += 1;
      }
    }
    expect(refused).toBeGreaterThan(0);
    for (const u of users) {
      const b = await ledger.balance(u);
      expect({ available: b.available, held: b.held }).toEqual(model.get(u));
      const sums = await db.prisma.ledgerEntry.aggregate({
        where: { userId: u },
        _sum: { availableDelta: true, heldDelta: true },
      });
      expect(sums._sum.availableDelta ?? 0n).toBe(b.available);
      expect(sums._sum.heldDelta ?? 0n).toBe(b.held);
      expect(b.available >= 0n && b.held >= 0n).toBe(true);
    }
    expect(await ledger.audit()).toEqual([]);
  });

  it('entries are append-only in the database itself: UPDATE, DELETE and TRUNCATE raise', async () => {
    await ledger.postAll([{ ...move('u5', 1_000_000n, 0n), idempotencyKey: 'append-only' }]);
    const prisma = db.prisma;
    await expect(
      prisma.$executeRaw`UPDATE "LedgerEntry" SET "availableDelta" = 2000000 WHERE "idempotencyKey" = 'append-only'`,
    ).rejects.toThrow(/append-only: UPDATE is not allowed/);
    await expect(prisma.$executeRaw`DELETE FROM "LedgerEntry" WHERE "idempotencyKey" = 'append-only'`).rejects.toThrow(
      /append-only: DELETE is not allowed/,
    );
    await expect(prisma.ledgerEntry.updateMany({ where: { userId: 'u5' }, data: { kind: 'edited' } })).rejects.toThrow(
      /append-only/,
    );
    await expect(prisma.ledgerEntry.deleteMany({ where: { userId: 'u5' } })).rejects.toThrow(/append-only/);
    await expect(prisma.$executeRaw`TRUNCATE "LedgerEntry"`).rejects.toThrow(/append-only: TRUNCATE is not allowed/);
    const entry = await prisma.ledgerEntry.findUniqueOrThrow({ where: { idempotencyKey: 'append-only' } });
    expect([entry.availableDelta, entry.kind]).toEqual([1_000_000n, 'deposit']);
    // Inserting is what the ledger does, and still works.
    await ledger.postAll([{ ...move('u5', -1_000_000n, 0n, 'fee'), idempotencyKey: 'append-only:reversal' }]);
    expect(await ledger.balance('u5')).toMatchObject({ available: 0n, held: 0n });
    expect(await ledger.audit()).toEqual([]);
  });

  it('has a database check constraint under the service', async () => {
    await expect(
      db.prisma.$executeRaw`UPDATE "LedgerBalance" SET "available" = -1 WHERE "userId" = 'u1'`,
    ).rejects.toThrow();
  });
});
