import { afterCommit } from '../../../src/db/commit-hooks';
import type { Database } from '../../../src/db/database';
import { openTestDatabase } from '../../support/db';

/**
 * The commit hooks the account streams announce with, on the database the suite runs on (PGlite
 * embedded, PostgreSQL with DATABASE_URL): both are opened wrapped (`openDatabase`).
 */
let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.close());

const count = () => db.prisma.user.count({ where: { id: { startsWith: 'hook-' } } });

describe('afterCommit', () => {
  it('runs the hooks of an interactive transaction once it committed, in the order they were added', async () => {
    const ran: string[] = [];
    const result = await db.prisma.$transaction(async (tx) => {
      await tx.user.create({ data: { id: 'hook-a' } });
      expect(afterCommit(tx, () => ran.push('first'))).toBe(true);
      expect(afterCommit(tx, () => ran.push('second'))).toBe(true);
      expect(ran).toEqual([]);
      return 'done';
    });
    expect(result).toBe('done');
    expect(ran).toEqual(['first', 'second']);
  });

  it('drops the hooks of a transaction that rolled back', async () => {
    const ran: string[] = [];
    const before = await count();
    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.user.create({ data: { id: 'hook-b' } });
        afterCommit(tx, () => ran.push('never'));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(ran).toEqual([]);
    expect(await count()).toBe(before);
  });

  it('drops the hooks when the statement that fails is the database’s (a constraint)', async () => {
    const ran: string[] = [];
    await expect(
      db.prisma.$transaction(async (tx) => {
        afterCommit(tx, () => ran.push('never'));
        await tx.user.create({ data: { id: 'hook-a' } }); // exists: unique violation
      }),
    ).rejects.toThrow();
    expect(ran).toEqual([]);
  });

  it('runs at once on the client itself; refuses a transaction that ended and a client it cannot see', async () => {
    const ran: string[] = [];
    expect(afterCommit(db.prisma, () => ran.push('now'))).toBe(true);
    expect(ran).toEqual(['now']);
    let kept: object | undefined;
    await db.prisma.$transaction(async (tx) => {
      kept = tx;
      await tx.user.count();
    });
    expect(afterCommit(kept!, () => ran.push('late'))).toBe(false);
    expect(afterCommit({}, () => ran.push('foreign'))).toBe(false);
    expect(ran).toEqual(['now']);
  });

  it('a throwing hook fails neither the caller nor the hooks after it', async () => {
    const ran: string[] = [];
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    await db.prisma.$transaction(async (tx) => {
      afterCommit(tx, () => {
        throw new Error('hook broke');
      });
      afterCommit(tx, () => ran.push('after'));
      await tx.user.count();
    });
    expect(ran).toEqual(['after']);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/hook broke/));
    warn.mockRestore();
  });

  it('passes the array form through', async () => {
    const [n] = await db.prisma.$transaction([db.prisma.user.count({ where: { id: 'hook-a' } })]);
    expect(n).toBe(1);
  });
});
