import { TradeIngestService } from '../../../src/modules/ingestion/trade-ingest.service';
import type { CommentFieldsFragment, CommentPageFieldsFragment } from '../../../schema/generated/operations';
import { bearer, http, startTestApp, type TestApp } from '../../support/app';
import { allAtOnce, itOnPostgres, oneAfterAnother } from '../../support/modes';
import { publicTrade } from '../../support/trades';

type Comment = CommentFieldsFragment;
type Page = CommentPageFieldsFragment;

let app: TestApp;
let alice: string;
let bob: string;
let slug: string;
beforeAll(async () => {
  app = await startTestApp();
  alice = await app.token('alice');
  bob = await app.token('bob');
  slug = app.services.world.coreEvents[2].slug;
});
afterAll(async () => {
  await app.close();
});

const post = (path: string, token: string | null, json: unknown) =>
  http(`${app.url}${path}`, { method: 'POST', json, headers: token ? bearer(token) : {} });

describe('event comments', () => {
  it('creates (201), lists newest first with the offset envelope, and replies one level deep', async () => {
    const first = await post(`/api/events/${slug}/comments`, alice, { body: '  First!  ' });
    expect(first.status).toBe(201);
    const c1 = first.body as Comment;
    expect(c1).toMatchObject({ body: 'First!', authorId: 'alice', parentId: null, likeCount: 0, replyCount: 0 });
    const c2 = (await post(`/api/events/${slug}/comments`, bob, { body: 'Second' })).body as Comment;
    const reply = (await post(`/api/events/${slug}/comments`, bob, { body: 'Reply', parentId: c1.id })).body as Comment;
    expect(reply.parentId).toBe(c1.id);
    const nested = (await post(`/api/events/${slug}/comments`, alice, { body: 'Nested', parentId: reply.id }))
      .body as Comment;
    expect(nested.parentId).toBe(c1.id); // joins the thread root

    const page = (await http(`${app.url}/api/events/${slug}/comments?limit=10`)).body as Page;
    expect(page).toMatchObject({ limit: 10, offset: 0, total: 2 });
    expect(page.data.map((c) => c.id)).toEqual([c2.id, c1.id]);
    expect(page.data[1].replyCount).toBe(2);
    const replies = (await http(`${app.url}/api/comments/${c1.id}/replies`)).body as Page;
    expect(replies.data.map((c) => c.body)).toEqual(['Reply', 'Nested']);
  });

  it.each([
    [{ body: '' }, /^body: /],
    [{ body: '   ' }, /^body: /],
    [{ body: 'x'.repeat(2001) }, /^body: /],
    [{}, /^body: /],
  ])('400 naming the field (case %#)', async (json, message) => {
    const r = await post(`/api/events/${slug}/comments`, alice, json);
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(message);
  });

  it('401 without a bearer, 404 for an unknown event or parent', async () => {
    expect((await post(`/api/events/${slug}/comments`, null, { body: 'hi' })).status).toBe(401);
    expect((await post('/api/events/no-such-event/comments', alice, { body: 'hi' })).status).toBe(404);
    expect((await post(`/api/events/${slug}/comments`, alice, { body: 'hi', parentId: 'nope' })).status).toBe(404);
    expect((await http(`${app.url}/api/events/no-such-event/comments`)).status).toBe(404);
    expect((await http(`${app.url}/api/events/${slug}/comments?limit=101`)).status).toBe(400);
    expect((await http(`${app.url}/api/events/${slug}/comments?sort=best`)).status).toBe(400);
  });

  it('sorts by likes with sort=top', async () => {
    const other = app.services.world.coreEvents[4].slug;
    const a = (await post(`/api/events/${other}/comments`, alice, { body: 'a' })).body as Comment;
    const b = (await post(`/api/events/${other}/comments`, alice, { body: 'b' })).body as Comment;
    await post(`/api/comments/${a.id}/like`, bob, {});
    const top = (await http(`${app.url}/api/events/${other}/comments?sort=top`)).body as Page;
    expect(top.data.map((c) => c.id)).toEqual([a.id, b.id]);
    const recent = (await http(`${app.url}/api/events/${other}/comments?sort=recent`)).body as Page;
    expect(recent.data.map((c) => c.id)).toEqual([b.id, a.id]);
  });
});

describe('likes', () => {
  /** Twelve fans like a comment three times each, then six of them unlike it twice, sent by `send`. */
  async function likesAreExact(fans: string, send: typeof allAtOnce) {
    const c = (await post(`/api/events/${slug}/comments`, alice, { body: 'like me' })).body as Comment;
    const users = await Promise.all(Array.from({ length: 12 }, (_, i) => app.token(`${fans}-${i}`)));
    await send(users.length * 3, (i) => post(`/api/comments/${c.id}/like`, users[i % users.length], {}));
    await send(6 * 2, (i) =>
      http(`${app.url}/api/comments/${c.id}/like`, { method: 'DELETE', headers: bearer(users[i % 6]) }),
    );
    const row = await app.services.db.prisma.comment.findUniqueOrThrow({ where: { id: c.id } });
    expect(row.likeCount).toBe(6);
    expect(await app.services.db.prisma.commentLike.count({ where: { commentId: c.id } })).toBe(6);
    const seenBy = (await http(`${app.url}/api/events/${slug}/comments?limit=100`, { headers: bearer(users[11]) }))
      .body as Page;
    expect(seenBy.data.find((x) => x.id === c.id)).toMatchObject({ likeCount: 6, likedByMe: true });
    const anon = (await http(`${app.url}/api/events/${slug}/comments?limit=100`)).body as Page;
    expect(anon.data.find((x) => x.id === c.id)!.likedByMe).toBeNull();
  }

  it('are idempotent: repeated likes and unlikes count once', () => likesAreExact('fan', oneAfterAnother));

  // A like is one transaction: PGlite runs them one at a time, so the race is PostgreSQL's.
  itOnPostgres('are exact under concurrency', () => likesAreExact('rushing-fan', allAtOnce));

  it('answer the like state; 404 for an unknown comment; 401 without bearer', async () => {
    const c = (await post(`/api/events/${slug}/comments`, alice, { body: 'x' })).body as Comment;
    expect((await post(`/api/comments/${c.id}/like`, bob, {})).body).toEqual({
      commentId: c.id,
      liked: true,
      likeCount: 1,
    });
    const un = await http(`${app.url}/api/comments/${c.id}/like`, { method: 'DELETE', headers: bearer(bob) });
    expect(un.body).toEqual({ commentId: c.id, liked: false, likeCount: 0 });
    expect((await post('/api/comments/nope/like', bob, {})).status).toBe(404);
    expect((await post(`/api/comments/${c.id}/like`, null, {})).status).toBe(401);
  });
});

describe('deleting', () => {
  it('is for the author only (403), removes replies, and 404s afterwards', async () => {
    const c = (await post(`/api/events/${slug}/comments`, alice, { body: 'to delete' })).body as Comment;
    const r = (await post(`/api/events/${slug}/comments`, bob, { body: 'reply', parentId: c.id })).body as Comment;
    const del = (token: string, id: string) =>
      http(`${app.url}/api/comments/${id}`, { method: 'DELETE', headers: bearer(token) });
    expect((await del(bob, c.id)).status).toBe(403);
    // Bob may delete his own reply; the root's reply count follows.
    expect((await del(bob, r.id)).status).toBe(200);
    expect((await app.services.db.prisma.comment.findUniqueOrThrow({ where: { id: c.id } })).replyCount).toBe(0);
    await post(`/api/events/${slug}/comments`, bob, { body: 'reply 2', parentId: c.id });
    const gone = await del(alice, c.id);
    expect(gone.status).toBe(200);
    expect((gone.body as Comment).id).toBe(c.id);
    expect((await del(alice, c.id)).status).toBe(404);
    expect(await app.services.db.prisma.comment.count({ where: { parentId: c.id } })).toBe(0);
    expect((await http(`${app.url}/api/comments/${c.id}/replies`)).status).toBe(404);
  });
});

describe('trade comments', () => {
  it('attach to a trade seen on a venue (venue:venueTradeId); 404 otherwise', async () => {
    const market = await app.services.db.prisma.market.findFirstOrThrow({ where: { venue: 'venue_a' } });
    await app.services.get(TradeIngestService).ingest([
      publicTrade({
        venueTradeId: 'comment-trade-1',
        venueMarketId: market.venueMarketId,
        venueTraderId: '0x2222222222222222222222222222222222222222',
        outcome: 'no',
        price: 0.61,
        size: 3,
      }),
    ]);
    const tradeId = 'venue_a:comment-trade-1';
    const created = await post(`/api/trades/${tradeId}/comments`, alice, { body: 'Nice entry' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tradeId, eventId: null });
    const page = (await http(`${app.url}/api/trades/${tradeId}/comments`)).body as Page;
    expect(page.total).toBe(1);
    expect((await post('/api/trades/venue_a:unknown/comments', alice, { body: 'x' })).status).toBe(404);
    expect((await http(`${app.url}/api/trades/garbage/comments`)).status).toBe(404);
  });
});

describe('documented statuses', () => {
  const del = (path: string, token: string | null) =>
    http(`${app.url}${path}`, { method: 'DELETE', headers: token ? bearer(token) : {} });

  it('404 for a reply whose parent is on another event or another trade', async () => {
    const other = app.services.world.coreEvents[6].slug;
    const onOther = (await post(`/api/events/${other}/comments`, alice, { body: 'elsewhere' })).body as Comment;
    const r = await post(`/api/events/${slug}/comments`, bob, { body: 'wrong thread', parentId: onOther.id });
    expect([r.status, (r.body as { error: string }).error]).toEqual([404, 'not_found']);

    const market = await app.services.db.prisma.market.findFirstOrThrow({ where: { venue: 'venue_a' } });
    const trade = (id: string) =>
      publicTrade({
        venueTradeId: id,
        venueMarketId: market.venueMarketId,
        venueTraderId: '0x3333333333333333333333333333333333333333',
      });
    await app.services.get(TradeIngestService).ingest([trade('status-trade-1'), trade('status-trade-2')]);
    const onTrade = (await post('/api/trades/venue_a:status-trade-1/comments', alice, { body: 'on a trade' }))
      .body as Comment;
    expect(
      (await post('/api/trades/venue_a:status-trade-2/comments', bob, { body: 'other trade', parentId: onTrade.id }))
        .status,
    ).toBe(404);
    expect(
      (await post(`/api/events/${slug}/comments`, bob, { body: 'trade parent', parentId: onTrade.id })).status,
    ).toBe(404);
    expect(
      (await post('/api/trades/venue_a:status-trade-1/comments', bob, { body: 'event parent', parentId: onOther.id }))
        .status,
    ).toBe(404);
    // Nothing was written, and the parents' counts did not move.
    expect((await app.services.db.prisma.comment.findUniqueOrThrow({ where: { id: onOther.id } })).replyCount).toBe(0);
    expect((await app.services.db.prisma.comment.findUniqueOrThrow({ where: { id: onTrade.id } })).replyCount).toBe(0);
    expect(
      (await post('/api/trades/venue_a:status-trade-1/comments', bob, { body: 'same trade', parentId: onTrade.id }))
        .status,
    ).toBe(201);
  });

  it(
    '401 without a bearer on DELETE /api/comments/{id} and DELETE /api/comments/{id}/like; nothing ' + 'changes',
    async () => {
      const c = (await post(`/api/events/${slug}/comments`, alice, { body: 'keep me' })).body as Comment;
      await post(`/api/comments/${c.id}/like`, bob, {});
      for (const path of [`/api/comments/${c.id}`, `/api/comments/${c.id}/like`]) {
        const r = await del(path, null);
        expect([r.status, (r.body as { error: string }).error]).toEqual([401, 'unauthorized']);
        expect((await del(path, 'not-a-jwt')).status).toBe(401);
      }
      expect(await app.services.db.prisma.comment.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({
        likeCount: 1,
      });
    },
  );

  it('404 liking an unknown or deleted comment; 404 deleting one', async () => {
    expect((await post('/api/comments/00000000-0000-4000-8000-000000000000/like', bob, {})).status).toBe(404);
    const c = (await post(`/api/events/${slug}/comments`, alice, { body: 'gone soon' })).body as Comment;
    expect((await del(`/api/comments/${c.id}`, alice)).status).toBe(200);
    expect((await post(`/api/comments/${c.id}/like`, bob, {})).status).toBe(404);
    expect((await del(`/api/comments/${c.id}/like`, bob)).status).toBe(404);
    expect((await del('/api/comments/00000000-0000-4000-8000-000000000000', alice)).status).toBe(404);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=10001', 'offset'],
    ['offset=1.5', 'offset'],
  ])('400 naming the field for %s on event, trade and reply lists', async (qs, field) => {
    const c = (await post(`/api/events/${slug}/comments`, alice, { body: 'paged' })).body as Comment;
    for (const path of [
      `/api/events/${slug}/comments`,
      '/api/trades/venue_a:comment-trade-1/comments',
      `/api/comments/${c.id}/replies`,
    ]) {
      const r = await http(`${app.url}${path}?${qs}`);
      expect([path, r.status, (r.body as { message: string }).message.split(':')[0]]).toEqual([path, 400, field]);
    }
  });

  it('the bounds themselves are accepted (limit 1 and 100, offset 0 and 10000)', async () => {
    for (const qs of ['limit=1', 'limit=100', 'offset=0', 'offset=10000']) {
      const r = await http(`${app.url}/api/events/${slug}/comments?${qs}`);
      expect([qs, r.status]).toEqual([qs, 200]);
    }
    expect(((await http(`${app.url}/api/events/${slug}/comments?offset=10000`)).body as Page).data).toEqual([]);
  });

  it('pages replies oldest first with limit and offset', async () => {
    const root = (await post(`/api/events/${slug}/comments`, alice, { body: 'thread' })).body as Comment;
    const bodies = ['r1', 'r2', 'r3', 'r4', 'r5'];
    for (const b of bodies) await post(`/api/events/${slug}/comments`, bob, { body: b, parentId: root.id });
    const page = async (qs: string) => (await http(`${app.url}/api/comments/${root.id}/replies?${qs}`)).body as Page;
    const first = await page('limit=2');
    expect(first).toMatchObject({ limit: 2, offset: 0, total: 5 });
    expect(first.data.map((c) => c.body)).toEqual(['r1', 'r2']);
    expect((await page('limit=2&offset=2')).data.map((c) => c.body)).toEqual(['r3', 'r4']);
    const last = await page('limit=2&offset=4');
    expect([last.data.map((c) => c.body), last.total]).toEqual([['r5'], 5]);
    expect((await page('offset=5')).data).toEqual([]);
    expect((await page('')).data.every((c) => c.parentId === root.id)).toBe(true);
  });
});
