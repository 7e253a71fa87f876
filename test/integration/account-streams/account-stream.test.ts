import { createClient } from 'graphql-sse';
import { accountTopic } from '../../../src/modules/account-streams';
import { PAPER_CURRENCY } from '../../../src/modules/ledger/ledger.models';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { http, startTestApp, type TestApp } from '../../support/app';
import { lastData, postStream } from '../../support/execution-stream';
import { fund, setPaperBalance } from '../../support/funding';
import { micros } from '../../support/money';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { subscribed } from '../../support/pubsub';
import { waitFor } from '../../support/wait';
import { openAccountStream, shapes, takeThrough, type AccountUpdate } from './account-support';

/**
 * `GET /stream/account` and the `accountUpdates` subscription: the caller's own order, fill,
 * position and balance changes, each once its transaction committed, in commit order.
 */
const pinned = pinnedWorld();
const marketA = activeMatchedEvent(pinned.world).markets[0].venueMarketIds.venue_a!;
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, {}, pinned);
});
afterAll(() => app.close());

const paperBuy = async (user: string, size: number) =>
  postStream(
    `${app.url}/execute`,
    { marketId: marketA, side: 'buy', outcome: 'yes', size, mode: 'simulation' },
    await app.bearer(user),
  );

describe('GET /stream/account', () => {
  it("streams the caller's paper buy: order, fills, position, balance, in commit order, mode simulation", async () => {
    const ann = await openAccountStream(app, 'ann');
    const bob = await openAccountStream(app, 'bob');
    try {
      expect(ann.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const r = await paperBuy('ann', 3);
      expect(r.status).toBe(200);
      const orderId = lastData(r).orderId;
      const got = await takeThrough(ann, 'balance');
      const fills = got.filter((u) => u.kind === 'fill');
      expect(shapes(got)).toEqual(['order:filled', ...fills.map(() => 'fill'), 'position', 'balance']);
      expect(fills.length).toBeGreaterThan(0);
      expect(got.every((u) => u.mode === 'simulation')).toBe(true);

      const rows = await app.services.db.prisma.order.findUniqueOrThrow({
        where: { id: orderId },
        include: { fills: { orderBy: { seq: 'asc' } } },
      });
      const [order, position, balance] = [got[0], got.at(-2)!, got.at(-1)!];
      expect(order.order).toMatchObject({ id: orderId, state: 'filled', mode: 'simulation', venue: 'venue_a' });
      expect(order.order).toMatchObject({ marketId: marketA, side: 'buy', outcome: 'yes', requestedSize: 3 });
      expect(fills.map((u) => [u.fill!.id, u.fill!.orderId, u.fill!.seq])).toEqual(
        rows.fills.map((f) => [f.id, orderId, f.seq]),
      );
      expect(position.position).toMatchObject({ id: rows.positionId, status: 'open', size: 3, mode: 'simulation' });
      const paper = await app.services.get(LedgerService).balance('ann', PAPER_CURRENCY);
      expect(micros(balance.balance!.available)).toBe(paper.available);
      expect(new Set(got.map((u) => u.id)).size).toBe(got.length);

      // Another user's stream heard none of it: its first message is its own change, made after.
      await fund(app, 'bob', 7);
      const [own] = await takeThrough(bob, 'balance');
      expect(own).toMatchObject({ kind: 'balance', mode: 'live', balance: { available: 7, held: 0 } });
    } finally {
      ann.close();
      bob.close();
    }
  });

  it('announces nothing of a rolled-back transaction: a paper buy short of funds is only its rejection', async () => {
    await setPaperBalance(app, 'cat', 0.5);
    const cat = await openAccountStream(app, 'cat');
    try {
      const r = await paperBuy('cat', 50);
      expect(lastData(r).event).toBe('failed');
      const [rejected] = await takeThrough(cat, 'order');
      expect(rejected.order).toMatchObject({ state: 'rejected', mode: 'simulation' });
      expect(rejected.order!.failureReason).toMatch(/insufficient balance/);
      // The settlement (order, fills, position, paper balance) rolled back: the next message is the marker's.
      await fund(app, 'cat', 1);
      const [next] = await takeThrough(cat, 'balance');
      expect(next).toMatchObject({ kind: 'balance', mode: 'live', balance: { available: 1 } });
    } finally {
      cat.close();
    }
  });

  it('keeps one account with ?mode=', async () => {
    const dee = await openAccountStream(app, 'dee', '?mode=live');
    try {
      await paperBuy('dee', 1);
      await fund(app, 'dee', 2);
      const [first] = await takeThrough(dee, 'balance');
      expect(first).toMatchObject({ kind: 'balance', mode: 'live', balance: { available: 2 } });
    } finally {
      dee.close();
    }
  });

  it('401 without a user token, 400 for a bad mode, before any stream opens', async () => {
    expect((await http(`${app.url}/stream/account`)).status).toBe(401);
    expect((await http(`${app.url}/stream/account`, { headers: await app.walletBearer('ann') })).status).toBe(401);
    const bad = await http(`${app.url}/stream/account?mode=paper`, { headers: await app.bearer('ann') });
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toMatch(/^mode: /);
  });

  it('releases the subscription when the client leaves', async () => {
    const eve = await openAccountStream(app, 'eve');
    expect(app.services.infra.pubsub.listenerCount(accountTopic('eve'))).toBe(1);
    eve.close();
    await waitFor(() => app.services.infra.pubsub.listenerCount(accountTopic('eve')) === 0, 'unsubscribed');
  });
});

describe('accountUpdates over graphql-sse', () => {
  it("delivers the caller's paper buy in commit order, and nothing of another user's", async () => {
    const client = createClient({
      url: `${app.url}/graphql/stream`,
      retryAttempts: 0,
      headers: async () => app.bearer('fay'),
    });
    const received: AccountUpdate[] = [];
    let failed: unknown;
    const done = new Promise<void>((resolve, reject) => {
      const stop = client.subscribe<{ accountUpdates: AccountUpdate }>(
        {
          query:
            'subscription { accountUpdates { id kind mode at order { id state mode } fill { orderId seq } ' +
            'position { id size mode } balance { available held } } }',
        },
        {
          next: (v) => {
            const u = v.data!.accountUpdates;
            received.push(u);
            if (u.kind === 'balance') {
              stop();
              resolve();
            }
          },
          error: reject,
          complete: resolve,
        },
      );
    });
    done.catch((err: unknown) => (failed = err ?? new Error('the subscription failed')));
    try {
      await waitFor(
        () => app.services.infra.pubsub.listenerCount(accountTopic('fay')) === 1 || failed !== undefined,
        'the subscription',
      );
      await subscribed(app.services.infra.pubsub, accountTopic('fay'));
      await paperBuy('gus', 1); // another user's: never reaches fay
      const orderId = lastData(await paperBuy('fay', 2)).orderId;
      await done;
      expect(shapes(received)).toEqual([
        'order:filled',
        ...received.filter((u) => u.kind === 'fill').map(() => 'fill'),
        'position',
        'balance',
      ]);
      expect(received[0].order).toMatchObject({ id: orderId, mode: 'simulation' });
      expect(received.every((u) => u.mode === 'simulation')).toBe(true);
      expect(received.filter((u) => u.kind === 'fill').every((u) => u.fill!.orderId === orderId)).toBe(true);
    } finally {
      client.dispose();
    }
  });

  it('refuses a caller without a user token', async () => {
    const client = createClient({ url: `${app.url}/graphql/stream`, retryAttempts: 0 });
    const results: unknown[] = [];
    await new Promise<void>((resolve) => {
      client.subscribe(
        { query: 'subscription { accountUpdates { id } }' },
        { next: (m) => void results.push(m), error: (e) => (results.push(e), resolve()), complete: resolve },
      );
    });
    client.dispose();
    expect(JSON.stringify(results)).toMatch(/UNAUTHENTICATED|unauthorized/i);
  });
});
