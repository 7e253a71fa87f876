import type { Database } from '../../../src/db/database';
import { UserLease } from '../../../src/modules/social/copytrade/user-lease';
import { openTestDatabase } from '../../support/db';
import { sleep, waitFor } from '../../support/wait';

/** The per-user lease copytrading runs under, over a real database (PGlite, or PostgreSQL with DATABASE_URL). */
let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db.close();
});

/** Runs `n` jobs for `userId` through the given leases (round robin) and reports the most that overlapped. */
async function overlap(leases: UserLease[], userId: string, n: number, ms = 15): Promise<number> {
  let inside = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      leases[i % leases.length].run(userId, async () => {
        inside += 1;
        most = Math.max(most, inside);
        await sleep(ms);
        inside -= 1;
      }),
    ),
  );
  return most;
}

describe('UserLease', () => {
  it("runs one user's work one at a time, in one process and across two sharing the database", async () => {
    expect(await overlap([new UserLease(db.prisma, 'test.lease')], 'u1', 5)).toBe(1);
    // Two instances stand for two processes: only the row keeps them apart.
    expect(
      await overlap([new UserLease(db.prisma, 'test.lease'), new UserLease(db.prisma, 'test.lease')], 'u2', 6),
    ).toBe(1);
    expect(await db.prisma.idempotentRequest.count({ where: { operation: 'test.lease' } })).toBe(0);
  });

  it("does not hold one user's work up for another's", async () => {
    const lease = new UserLease(db.prisma, 'test.lease');
    let release: (() => void) | undefined;
    const held = lease.run('slow', () => new Promise<void>((r) => (release = r)));
    await waitFor(() => release !== undefined, 'the slow work runs under its lease');
    await expect(lease.run('fast', async () => 'done')).resolves.toBe('done');
    release!();
    await held;
  });

  it('releases on failure, and passes the result or error through', async () => {
    const lease = new UserLease(db.prisma, 'test.lease');
    await expect(lease.run('u3', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lease.run('u3', async () => 42)).resolves.toBe(42);
  });

  it('takes over a lease its holder stopped renewing (a process that died)', async () => {
    await db.prisma.idempotentRequest.create({
      data: {
        userId: 'u4',
        operation: 'test.lease',
        key: 'lease',
        requestHash: 'dead-holder',
        createdAt: new Date(Date.now() - 60_000),
      },
    });
    const lease = new UserLease(db.prisma, 'test.lease', { leaseMs: 1_000, waitMs: 500 });
    await expect(lease.run('u4', async () => 'mine')).resolves.toBe('mine');
  });

  it('renews a lease while its work runs, so a long holder is not taken over', async () => {
    const a = new UserLease(db.prisma, 'test.lease', { leaseMs: 150, waitMs: 3_000 });
    const b = new UserLease(db.prisma, 'test.lease', { leaseMs: 150, waitMs: 3_000 });
    expect(await overlap([a, b], 'u5', 2, 600)).toBe(1);
  });

  it('answers 409 when the lease stays taken longer than the wait', async () => {
    const a = new UserLease(db.prisma, 'test.lease');
    const b = new UserLease(db.prisma, 'test.lease', { waitMs: 100 });
    let release: (() => void) | undefined;
    const held = a.run('u6', () => new Promise<void>((r) => (release = r)));
    await waitFor(() => release !== undefined, 'the first work runs under its lease');
    await expect(b.run('u6', async () => 'late')).rejects.toMatchObject({ code: 'conflict' });
    // In one process too: the in-memory queue honours the wait.
    const c = new UserLease(db.prisma, 'test.lease', { waitMs: 100 });
    let releaseC: (() => void) | undefined;
    const heldC = c.run('u7', () => new Promise<void>((r) => (releaseC = r)));
    await waitFor(() => releaseC !== undefined, 'the first work runs under its lease');
    await expect(c.run('u7', async () => 'late')).rejects.toMatchObject({ code: 'conflict' });
    release!();
    releaseC!();
    await Promise.all([held, heldC]);
  });
});
