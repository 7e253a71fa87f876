import type { NotificationsQuery, RequestWithdrawalMutation } from '../../../schema/generated/operations';
import { HttpPushClient, NotificationsService } from '../../../src/modules/notifications';
import { http, startTestApp, type TestApp } from '../../support/app';
import {
  startFakeUpstream,
  type FakeUpstream,
  type UpstreamRequest,
  type UpstreamReply,
} from '../../support/fake-upstream';
import { postStream } from '../../support/execution-stream';
import { fund } from '../../support/funding';
import { eventually, sleep } from '../../support/wait';
import { fillFactory } from '../webhooks/fill-fixtures';
import { WithdrawalsService } from '../../../src/modules/funding/withdrawals.service';
import type { FakeVenues } from '../../support/fake-venues';
import { startLiveVenueB } from '../execution/trading-helpers';

/**
 * Push delivery to a push provider on port 0, for every kind of domain event
 * that notifies (an order fill, a followed trader's trade, rewards becoming
 * available, a withdrawal changing state), and each push isolated from the
 * others: a failed one is reported and the rest of its batch still goes out.
 */
let app: TestApp;
let provider: FakeUpstream;
/** A live venue_b (a local server) where live orders pay fees in USD, which earn rewards. */
let venueB: FakeVenues;
/** Its market (the world runs on the wall clock, as the fees' and rewards' timestamps do). */
const marketB = 'KXPUSH-TEST';
const INDEXER_SECRET = 'push-indexer-secret';
const ok = (): UpstreamReply => ({ status: 200, body: {} });

interface SentPush {
  tokens: string[];
  notification: { title: string; body: string };
  data: Record<string, string>;
}

beforeAll(async () => {
  provider = await startFakeUpstream(ok);
  const live = await startLiveVenueB([marketB]);
  venueB = live.fake;
  app = await startTestApp({
    ...live.env,
    PUSH_PROVIDER_URL: `${provider.url}/v1`,
    PUSH_PROVIDER_KEY: 'push-key',
    INDEXER_SHARED_SECRET: INDEXER_SECRET,
    REWARDS_HOLD_SECONDS: '0',
    REWARDS_SETTLE_MS: '0',
    WITHDRAWAL_DISPATCH_MS: '0',
  });
});
afterAll(async () => {
  await app.close();
  await provider.close();
  await venueB.close();
});

const device = (sub: string) => `device-${sub}-0123456789abcdef`;

async function register(sub: string): Promise<void> {
  const r = await app.as(sub).post('/api/push-tokens', { token: device(sub), platform: 'android' });
  expect(r.status).toBe(201);
}

/** What the provider was sent for `sub`'s device (every call, failed or not). */
function callsFor(sub: string): { request: UpstreamRequest; push: SentPush }[] {
  return provider.requests
    .filter((r) => r.path === '/v1/send' && (r.body as SentPush).tokens.includes(device(sub)))
    .map((request) => ({ request, push: request.body as SentPush }));
}

/** Waits (notifications are stored, then pushed, after the write that caused them) until `sub` was pushed `kind`. */
async function pushedTo(sub: string, kind: string): Promise<SentPush> {
  return eventually(
    async () => {
      await app.services.get(NotificationsService).settled();
      return callsFor(sub).find((c) => c.push.data.kind === kind)?.push;
    },
    `a ${kind} push to ${sub}'s device`,
    6_000,
  );
}

async function indexerFill(maker: string, serial: number): Promise<void> {
  const market = await app.services.db.prisma.market.findFirstOrThrow({
    where: { venue: 'venue_a' },
    orderBy: { id: 'asc' },
  });
  const r = await http(`${app.url}/webhooks/chain-indexer/venue_a`, {
    method: 'POST',
    headers: { 'x-indexer-secret': INDEXER_SECRET },
    // `maker` buys 1 YES for 0.42 USDC.
    json: { fills: [fillFactory(() => [market], serial - 1)({ m: 0, side: 'buy', maker })] },
  });
  expect(r.status).toBe(200);
}

describe('push delivery of each kind of notification', () => {
  it('an order fill (POST /execute) is pushed to the buyer', async () => {
    await register('fill-buyer');
    await fund(app, 'fill-buyer', 500);
    const r = await postStream(
      `${app.url}/execute`,
      { marketId: marketB, side: 'buy', outcome: 'yes', size: 5 },
      await app.bearer('fill-buyer'),
    );
    const done = r.events.at(-1)!;
    expect(done.event).toBe('completed');
    const push = await pushedTo('fill-buyer', 'order_fill');
    expect(push).toMatchObject({
      tokens: [device('fill-buyer')],
      notification: { title: 'Order filled' },
      data: { orderId: done.data.orderId, state: 'filled' },
    });
  });

  it('one push per notification carries every device of its user; a once-only one is pushed once', async () => {
    const second = `${device('two-devices')}-tablet`;
    await register('two-devices');
    expect((await app.as('two-devices').post('/api/push-tokens', { token: second, platform: 'ios' })).status).toBe(201);
    const notifications = app.services.get(NotificationsService);
    const reward = {
      userId: 'two-devices',
      kind: 'reward' as const,
      title: 'Reward credited',
      body: 'a reward',
      onceKey: 'reward-1',
    };
    const reply = { userId: 'two-devices', kind: 'comment_reply' as const, title: 'A reply', body: 'hello' };
    // Stored, not pushed: likes are off by default.
    const like = { userId: 'two-devices', kind: 'comment_like' as const, title: 'A like', body: 'liked' };
    const deviceless = { userId: 'no-devices', kind: 'comment_reply' as const, title: 'A reply', body: 'hi' };
    const before = provider.requests.length;
    await notifications.notify([reward, reply, like, deviceless]);
    await notifications.notify([reward]); // stored already: neither stored nor pushed again
    await notifications.settled();
    const sent = provider.requests.slice(before).map((r) => r.body as SentPush);
    expect(sent.map((p) => p.data.kind).sort()).toEqual(['comment_reply', 'reward']);
    for (const push of sent) expect([...push.tokens].sort()).toEqual([device('two-devices'), second].sort());
    const stored = await app.services.db.prisma.notification.findMany({
      where: { userId: { in: ['two-devices', 'no-devices'] } },
    });
    expect(stored.map((n) => `${n.userId}/${n.kind}`).sort()).toEqual([
      'no-devices/comment_reply',
      'two-devices/comment_like',
      'two-devices/comment_reply',
      'two-devices/reward',
    ]);
  });

  it("a followed trader's trade (chain-indexer webhook) is pushed to the follower", async () => {
    const trader = '0x' + '5e'.repeat(20);
    await register('trade-fan');
    expect((await app.as('trade-fan').post('/api/follows', { venue: 'venue_a', traderId: trader })).status).toBe(201);
    await indexerFill(trader, 100);
    const push = await pushedTo('trade-fan', 'followed_trade');
    expect(push.data).toMatchObject({ traderId: trader, venue: 'venue_a' });
    expect(push.notification.title).toMatch(/bought YES$/);
  });

  it('rewards becoming available (cashback on a fee, released on a read) are pushed', async () => {
    await register('reward-earner');
    await fund(app, 'reward-earner', 500);
    const r = await postStream(
      `${app.url}/execute`,
      // Live: paper (simulated) fees earn no rewards.
      { marketId: marketB, side: 'buy', outcome: 'yes', size: 25, mode: 'live' },
      await app.walletBearer('reward-earner'),
    );
    expect(r.events.at(-1)!.event).toBe('completed');
    // The hold is 0 s: the next read of the rewards releases the cashback.
    expect((await app.as('reward-earner').get('/api/rewards/summary')).status).toBe(200);
    const push = await pushedTo('reward-earner', 'reward');
    expect(push).toMatchObject({ notification: { title: 'Rewards available' }, data: { event: 'available' } });
    expect(Number(push.data.usd)).toBeGreaterThan(0);
  });

  it('a withdrawal changing state (the dispatcher hands it to the processor) is pushed', async () => {
    await register('withdrawer');
    await fund(app, 'withdrawer', 50);
    const w = await app
      .asWallet('withdrawer')
      .post('/api/funding/withdraw', { amount: 20, chain: 'polygon', destination: '0x' + 'ab'.repeat(20) });
    expect(w.status).toBe(201);
    const id = (w.body as RequestWithdrawalMutation['requestWithdrawal']).id;
    expect(await app.services.get(WithdrawalsService).dispatch()).toBeGreaterThanOrEqual(1);
    const push = await pushedTo('withdrawer', 'withdrawal');
    // The simulated processor pays at once: the change announced is to `completed`.
    expect(push).toMatchObject({
      notification: { title: 'Withdrawal completed' },
      data: { withdrawalId: id, status: 'completed' },
    });
  });
});

describe('one failed push does not stop the others', () => {
  it('the provider fails the first call of a batch; the other follower still gets the trade', async () => {
    const trader = '0x' + '6f'.repeat(20);
    for (const sub of ['batch-a', 'batch-b']) {
      await register(sub);
      expect((await app.as(sub).post('/api/follows', { venue: 'venue_a', traderId: trader })).status).toBe(201);
    }
    let calls = 0;
    provider.handle(() => ((calls += 1) === 1 ? { status: 500 } : ok()));
    try {
      // One trade, two followers: one batch of two notifications.
      await indexerFill(trader, 200);
      let a: ReturnType<typeof callsFor> = [];
      let b: ReturnType<typeof callsFor> = [];
      for (let i = 0; i < 300 && a.length + b.length < 2; i += 1) {
        await app.services.get(NotificationsService).settled();
        [a, b] = [callsFor('batch-a'), callsFor('batch-b')];
        if (a.length + b.length < 2) await sleep(20);
      }
      expect([a.length, b.length]).toEqual([1, 1]);
      expect(calls).toBe(2);
      expect([a[0].push.data.kind, b[0].push.data.kind]).toEqual(['followed_trade', 'followed_trade']);
    } finally {
      provider.handle(ok);
    }
    // Both were stored whatever the pushes did.
    for (const sub of ['batch-a', 'batch-b']) {
      const page = (await app.as(sub).get('/api/notifications')).body as NotificationsQuery['notifications'];
      expect(page.data.map((n) => n.kind)).toEqual(['followed_trade']);
    }
  });

  it('reports each failed push through the error hook and sends the rest (bounded, not one by one)', async () => {
    const subs = Array.from({ length: 12 }, (_, i) => `hook-${i}`);
    for (const sub of subs) await register(sub);
    const failing = new Set([device('hook-0'), device('hook-5')]);
    let inFlight = 0;
    let most = 0;
    provider.handle(async (req) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await sleep(30);
      inFlight -= 1;
      return (req.body as SentPush).tokens.some((t) => failing.has(t)) ? { status: 503 } : ok();
    });
    const errors: unknown[] = [];
    const service = new NotificationsService(
      app.services.db.prisma,
      new HttpPushClient(`${provider.url}/v1`, 'push-key'),
      (err) => errors.push(err),
    );
    const before = provider.requests.length;
    try {
      await service.notify(
        subs.map((userId) => ({ userId, kind: 'comment_reply' as const, title: 'New reply', body: `to ${userId}` })),
      );
      await service.settled();
    } finally {
      provider.handle(ok);
    }
    const sent = provider.requests.slice(before).map((r) => (r.body as SentPush).tokens[0]);
    expect(sent.sort()).toEqual(subs.map(device).sort());
    expect(errors).toHaveLength(2);
    expect(errors.every((e) => e instanceof Error && /503/.test(e.message))).toBe(true);
    // Concurrent, but bounded.
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(8);
  });
});
