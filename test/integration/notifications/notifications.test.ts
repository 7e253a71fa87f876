import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  CreateEventCommentMutation,
  NotificationsQuery,
  PreferencesQuery,
} from '../../../schema/generated/operations';
import { http as request, startTestApp, type TestApp, type UserClient } from '../../support/app';
import { TradeIngestService } from '../../../src/modules/ingestion/trade-ingest.service';
import { NotificationsService } from '../../../src/modules/notifications/notifications.service';

// A push provider on port 0 recording what it is sent.
const pushed: { tokens: string[]; notification: { title: string }; data: Record<string, string> }[] = [];
const provider = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    if (req.url === '/v1/send' && req.headers.authorization === 'Bearer push-key') pushed.push(JSON.parse(body));
    res.writeHead(req.headers.authorization === 'Bearer push-key' ? 200 : 401).end('{}');
  });
});

let app: TestApp;
let alice: UserClient;
let bob: UserClient;
const TOKEN = 'device-token-0123456789abcdef';

beforeAll(async () => {
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
  const port = (provider.address() as AddressInfo).port;
  app = await startTestApp({ PUSH_PROVIDER_URL: `http://127.0.0.1:${port}/v1`, PUSH_PROVIDER_KEY: 'push-key' });
  alice = app.as('n-alice');
  bob = app.as('n-bob');
});
afterAll(async () => {
  await app.close();
  await new Promise<void>((r) => provider.close(() => r()));
});

const list = async (user: UserClient, qs = '') =>
  (await user.get(`/api/notifications${qs}`)).body as NotificationsQuery['notifications'];

describe('notifications from domain events', () => {
  it('a reply to your comment notifies you (and pushes to your device); your own reply does not', async () => {
    const reg = await alice.post('/api/push-tokens', { token: TOKEN, platform: 'ios' });
    expect(reg.status).toBe(201);
    const slug = app.services.world.coreEvents[1].slug;
    const c = (await alice.post(`/api/events/${slug}/comments`, { body: 'mine' }))
      .body as CreateEventCommentMutation['createEventComment'];
    await alice.post(`/api/events/${slug}/comments`, { body: 'self', parentId: c.id });
    await bob.post(`/api/events/${slug}/comments`, { body: 'a reply', parentId: c.id });
    const page = await list(alice);
    expect(page.data.map((n) => n.kind)).toEqual(['comment_reply']);
    expect(page.data[0].data).toMatchObject({ parentId: c.id });
    await app.services.get(NotificationsService).settled();
    expect(pushed).toEqual([
      {
        tokens: [TOKEN],
        notification: { title: 'New reply', body: 'a reply' },
        data: expect.objectContaining({ kind: 'comment_reply' }),
      },
    ]);
  });

  it('a like notifies the author once (likes are not pushed by default)', async () => {
    const slug = app.services.world.coreEvents[1].slug;
    const c = (await alice.post(`/api/events/${slug}/comments`, { body: 'like me' }))
      .body as CreateEventCommentMutation['createEventComment'];
    await bob.post(`/api/comments/${c.id}/like`);
    await bob.post(`/api/comments/${c.id}/like`);
    const likes = (await list(alice)).data.filter((n) => n.kind === 'comment_like');
    expect(likes).toHaveLength(1);
    await app.services.get(NotificationsService).settled();
    expect(pushed.filter((p) => p.data.kind === 'comment_like')).toHaveLength(0);
  });

  it('liking, unliking and liking again notifies (and pushes to) the author once per liker', async () => {
    const carol = app.as('n-carol');
    const dan = app.as('n-dan');
    const erin = app.as('n-erin');
    const device = `${TOKEN}-carol`;
    await carol.post('/api/push-tokens', { token: device, platform: 'web' });
    await carol.put('/api/preferences', { 'notifications.comment_likes': true });
    const slug = app.services.world.coreEvents[1].slug;
    const c = (await carol.post(`/api/events/${slug}/comments`, { body: 'like me again' }))
      .body as CreateEventCommentMutation['createEventComment'];
    const like = (user: UserClient) => user.post(`/api/comments/${c.id}/like`);
    const unlike = (user: UserClient) => user.delete(`/api/comments/${c.id}/like`);
    for (const step of [like, unlike, like, unlike, like]) expect((await step(dan)).status).toBe(200);
    await app.services.get(NotificationsService).settled();
    const fromDan = (await list(carol)).data.filter((n) => n.kind === 'comment_like');
    expect(fromDan).toHaveLength(1);
    expect(fromDan[0].data).toEqual({ commentId: c.id });
    expect(pushed.filter((p) => p.tokens.includes(device) && p.data.kind === 'comment_like')).toHaveLength(1);
    // Another user's first like is news again; the count is exact.
    expect((await like(erin)).body).toMatchObject({ likeCount: 2 });
    await app.services.get(NotificationsService).settled();
    expect((await list(carol)).data.filter((n) => n.kind === 'comment_like')).toHaveLength(2);
    expect(pushed.filter((p) => p.tokens.includes(device) && p.data.kind === 'comment_like')).toHaveLength(2);
  });

  it("a followed trader's trade notifies each follower", async () => {
    const wallet = '0x' + '9'.repeat(40);
    await bob.post('/api/follows', { venue: 'venue_a', traderId: wallet });
    const market = await app.services.db.prisma.market.findFirstOrThrow({ where: { venue: 'venue_a' } });
    await app.services.get(TradeIngestService).ingest([
      {
        venue: 'venue_a',
        venueTradeId: 'n-1',
        venueMarketId: market.venueMarketId,
        venueTraderId: wallet,
        side: 'buy',
        outcome: 'yes',
        price: 0.3,
        size: 7,
        filledAt: new Date(),
      },
    ]);
    const notes = (await list(bob)).data.filter((n) => n.kind === 'followed_trade');
    expect(notes).toHaveLength(1);
    expect(notes[0].data).toMatchObject({ traderId: wallet, tradeId: 'venue_a:n-1', marketId: market.venueMarketId });
  });
});

describe('GET /api/notifications and POST /api/notifications/read', () => {
  it('filters unread, marks given ids or all read', async () => {
    const all = await list(alice);
    expect(all.unreadCount).toBe(all.total);
    const first = all.data[0];
    const marked = await alice.post('/api/notifications/read', { ids: [first.id] });
    expect(marked.body).toEqual({ marked: 1 });
    const unread = await list(alice, '?unread=true');
    expect(unread.data.map((n) => n.id)).not.toContain(first.id);
    expect(unread.total).toBe(all.total - 1);
    const rest = await alice.post('/api/notifications/read', {});
    expect(rest.body).toEqual({ marked: all.total - 1 });
    expect((await list(alice)).unreadCount).toBe(0);
  });

  it('400 for unread other than true or a bad limit; 401 without bearer', async () => {
    expect((await alice.get('/api/notifications?unread=false')).status).toBe(400);
    expect((await alice.get('/api/notifications?limit=101')).status).toBe(400);
    expect((await request(`${app.url}/api/notifications`)).status).toBe(401);
  });
});

describe('push tokens', () => {
  it('400 for a bad token or platform; DELETE unregisters idempotently', async () => {
    const post = (json: unknown) => bob.post('/api/push-tokens', json);
    expect((await post({ token: 'short', platform: 'ios' })).status).toBe(400);
    expect((await post({ token: TOKEN + 'x', platform: 'blackberry' })).status).toBe(400);
    expect((await post({ token: 'has spaces in it 0123456', platform: 'web' })).status).toBe(400);
    expect((await post({ token: TOKEN + 'b', platform: 'web' })).status).toBe(201);
    const del = () => bob.delete('/api/push-tokens', { token: TOKEN + 'b' });
    expect((await del()).body).toEqual({ removed: true });
    expect((await del()).body).toEqual({ removed: false });
  });
});

describe('preferences', () => {
  it('answers every key with defaults, merges a PUT, and gates pushes', async () => {
    const get = async () => (await alice.get('/api/preferences')).body as PreferencesQuery['preferences'];
    const defaults = await get();
    expect(defaults).toMatchObject({
      'notifications.comment_replies': true,
      'display.odds_format': 'probability',
      'home.categories': [],
    });
    const put = await alice.put('/api/preferences', {
      'notifications.comment_replies': false,
      'home.categories': ['crypto', 'sports'],
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      'notifications.comment_replies': false,
      'home.categories': ['crypto', 'sports'],
      'display.odds_format': 'probability',
    });
    expect(await get()).toEqual(put.body);

    const before = pushed.length;
    const slug = app.services.world.coreEvents[3].slug;
    const c = (await alice.post(`/api/events/${slug}/comments`, { body: 'quiet' }))
      .body as CreateEventCommentMutation['createEventComment'];
    await bob.post(`/api/events/${slug}/comments`, { body: 'psst', parentId: c.id });
    await app.services.get(NotificationsService).settled();
    expect(pushed.length).toBe(before); // stored, not pushed
    expect((await list(alice, '?unread=true')).data[0].kind).toBe('comment_reply');
  });

  it.each([
    [{ 'notifications.unknown': true }, /^notifications\.unknown: /],
    [{ 'notifications.fills': 'yes' }, /^notifications\.fills: /],
    [{ 'display.odds_format': 'fractional' }, /^display\.odds_format: /],
    [{ 'trading.default_order_size': 0 }, /^trading\.default_order_size: /],
    [{ 'home.categories': Array.from({ length: 11 }, (_, i) => `c${i}`) }, /^home\.categories: /],
    [{ 'home.categories': ['x'.repeat(33)] }, /^home\.categories: /],
  ])('400 naming the key, nothing stored (case %#)', async (json, message) => {
    const before = await bob.get('/api/preferences');
    const r = await bob.put('/api/preferences', { 'trading.confirm_orders': false, ...json });
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(message);
    expect((await bob.get('/api/preferences')).body).toEqual(before.body);
  });
});
