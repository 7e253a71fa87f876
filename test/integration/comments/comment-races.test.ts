import { randomUUID } from 'node:crypto';
import { toAppError } from '../../../src/errors/normalize-error';
import type { CreateEventCommentMutation } from '../../../schema/generated/operations';
import { http, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';
import { itOnPostgres } from '../../support/modes';
import { sleep } from '../../support/wait';

/**
 * Likes and replies racing a comment's deletion, and the translation of the
 * database's foreign-key errors (Prisma P2003) that such a race raises: real
 * errors from the real database, never a mock.
 */
let app: TestApp;
let slug: string;

beforeAll(async () => {
  app = await startTestApp({ WITHDRAWAL_DISPATCH_MS: '0' });
  slug = app.services.world.coreEvents[5].slug;
});
afterAll(async () => {
  await app.close();
});

const comment = async (sub: string, body: string) =>
  (await app.as(sub).post(`/api/events/${slug}/comments`, { body }))
    .body as CreateEventCommentMutation['createEventComment'];

/** The error a write raises, from the database itself. */
async function errorOf(write: () => Promise<unknown>): Promise<unknown> {
  try {
    await write();
  } catch (err) {
    return err;
  }
  throw new Error('the write succeeded');
}

describe('foreign-key violations (P2003) are translated in one place', () => {
  it('a like or reply referring to a comment that is gone is a 404', async () => {
    const like = await errorOf(() =>
      app.services.db.prisma.commentLike.createMany({
        data: [{ commentId: randomUUID(), userId: 'u' }],
        skipDuplicates: true,
      }),
    );
    expect(like).toMatchObject({ name: 'PrismaClientKnownRequestError', code: 'P2003' });
    expect(toAppError(like)).toMatchObject({ code: 'not_found' });
    const reply = await errorOf(() =>
      app.services.db.prisma.comment.create({
        data: { id: randomUUID(), eventId: null, parentId: randomUUID(), authorId: 'u', body: 'orphan' },
      }),
    );
    expect(reply).toMatchObject({ code: 'P2003' });
    expect(toAppError(reply)).toMatchObject({ code: 'not_found' });
  });

  it('deleting a row another still refers to (a restricting key) is a 409', async () => {
    const c = await comment('fk-owner', 'referenced');
    // The schema's own keys all cascade; a restricting one is made for the test, in this test's database.
    await app.services.db.prisma.$executeRawUnsafe(
      'CREATE TABLE "FkProbe" ("commentId" TEXT NOT NULL REFERENCES "Comment"("id") ON DELETE RESTRICT)',
    );
    try {
      await app.services.db.prisma.$executeRawUnsafe('INSERT INTO "FkProbe" ("commentId") VALUES ($1)', c.id);
      const err = await errorOf(() => app.services.db.prisma.comment.delete({ where: { id: c.id } }));
      expect(err).toMatchObject({ code: 'P2003' });
      expect(toAppError(err)).toMatchObject({ code: 'conflict' });
    } finally {
      await app.services.db.prisma.$executeRawUnsafe('DROP TABLE "FkProbe"');
    }
  });

  it('raw statements (P2010) translate the same: a duplicate key is a 409, a missing reference a 404', async () => {
    const c = await comment('raw-author', 'raw');
    const prisma = app.services.db.prisma;
    const duplicate = await errorOf(
      () =>
        prisma.$executeRaw`INSERT INTO "Comment" ("id", "authorId", "body") VALUES (${c.id}, 'raw-author', 'again')`,
    );
    expect(duplicate).toMatchObject({ code: 'P2010' });
    expect(toAppError(duplicate)).toMatchObject({ code: 'conflict' });
    const orphan = await errorOf(
      () =>
        prisma.$executeRaw`INSERT INTO "Comment" ("id", "parentId", "authorId", "body")
          VALUES (${randomUUID()}, ${randomUUID()}, 'raw-author', 'orphan')`,
    );
    expect(orphan).toMatchObject({ code: 'P2010' });
    expect(toAppError(orphan)).toMatchObject({ code: 'not_found' });
    expect(toAppError(await errorOf(() => prisma.$executeRaw`SELECT 1/0`))).toBeNull();
  });

  it('liking or replying to a deleted comment is a 404 over REST and GraphQL', async () => {
    const c = await comment('fk-author', 'short-lived');
    expect((await app.as('fk-author').delete(`/api/comments/${c.id}`)).status).toBe(200);
    const like = await app.as('fk-fan').post(`/api/comments/${c.id}/like`);
    expect([like.status, (like.body as { error: string }).error]).toEqual([404, 'not_found']);
    const reply = await app.as('fk-fan').post(`/api/events/${slug}/comments`, { body: 'late', parentId: c.id });
    expect(reply.status).toBe(404);
    const liked = await gql(
      app,
      'mutation($id: String!) { likeComment(commentId: $id) { likeCount } }',
      { id: c.id },
      await app.bearer('fk-fan'),
    );
    expect(liked.body.errors![0].extensions.code).toBe('not_found');
  });
});

/**
 * The race itself needs two connections: a transaction deletes the comment
 * and holds, the like checks the comment (still there for it), inserts, and
 * waits on the key's lock; the deletion commits and the insert fails with
 * P2003. PGlite runs one transaction at a time, so this runs on PostgreSQL.
 */
itOnPostgres('a like racing the comment’s deletion is a 404, not a 500', async () => {
  const prisma = app.services.db.prisma;
  const c = await comment('race-author', 'racing');
  const headers = await app.bearer('race-fan');
  let like: Promise<Awaited<ReturnType<typeof http>>> | undefined;
  await prisma.$transaction(
    async (tx) => {
      await tx.comment.delete({ where: { id: c.id } });
      like = http(`${app.url}/api/comments/${c.id}/like`, { method: 'POST', headers });
      // Until the like's insert waits on the deleted row's lock.
      for (let i = 0; i < 500; i += 1) {
        const waiting = await prisma.$queryRaw<{ n: bigint }[]>`
          SELECT count(*) AS n FROM pg_stat_activity
          WHERE wait_event_type = 'Lock' AND query ILIKE '%INSERT INTO%CommentLike%'`;
        if (Number(waiting[0].n) > 0) return;
        await sleep(10);
      }
      throw new Error('the like never waited on the deletion');
    },
    { timeout: 20_000 },
  );
  const r = await like!;
  expect([r.status, (r.body as { error: string }).error]).toEqual([404, 'not_found']);
  expect(await prisma.commentLike.count({ where: { commentId: c.id } })).toBe(0);
});
