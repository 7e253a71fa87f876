import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { ExecutionService } from '../../../src/modules/execution/execution.service';
import { bearer, type TestApp } from '../../support/app';
import type { FakeUpstream, UpstreamReply, UpstreamRequest } from '../../support/fake-upstream';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { openSse } from '../../support/sse';
import { lastData, names, postStream } from '../../support/execution-stream';
import { fund } from '../../support/funding';
import { micros } from '../../support/money';
import { isOrderCall, orderRows, positionMatchesFills, startWithExecutionService } from './trading-helpers';

let app: TestApp;
let exec: FakeUpstream;
const pinned = pinnedWorld();
const event = activeMatchedEvent(pinned.world);
const marketA = event.markets[0].venueMarketIds.venue_a!;
const marketB = event.markets[0].venueMarketIds.venue_b!;
beforeAll(async () => {
  // A short wait and upstream timeout: the tests reach the poll deadline and a submit timeout in a second or two.
  ({ app, exec } = await startWithExecutionService(pinned, { EXECUTION_WAIT_MS: '1500', UPSTREAM_TIMEOUT_MS: '800' }));
});
afterAll(async () => {
  await app.close();
  await exec.close();
});

const live = async (sub: string, json: Record<string, unknown>, extra: Record<string, string> = {}) =>
  postStream(`${app.url}/execute`, { mode: 'live', ...json }, { ...(await app.walletBearer(sub)), ...extra });
const serve = (handler: (r: UpstreamRequest) => UpstreamReply | Promise<UpstreamReply>) => exec.handle(handler);
/** A gate the fake's handler awaits: its answers wait until the test releases it. */
function gate(): { opened: Promise<void>; release: () => void } {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { opened, release };
}
const prisma = () => app.services.db.prisma;
const reconcile = () => app.services.get(ExecutionService).reconcile();
const ledgerKinds = async (orderId: string) => (await orderRows(app, orderId)).entries.map((e) => e.kind);

describe('venue_a live: the execution service', () => {
  it('forwards the order with the wallet token and an idempotency key, then records its fills', async () => {
    await fund(app, 'alice', 100);
    serve((r) =>
      isOrderCall(r)
        ? {
            body: {
              id: 'ex-1',
              status: 'filled',
              fills: [
                { price: 0.55, size: 3 },
                { price: 0.56, size: 2 },
              ],
            },
          }
        : { status: 404 },
    );
    const before = exec.requests.length;
    const token = await app.walletToken('alice');
    const r = await postStream(
      `${app.url}/execute`,
      {
        mode: 'live',
        marketId: marketA,
        side: 'buy',
        outcome: 'yes',
        size: 5,
        eventTitle: 'NC governor',
        referrerId: 'ref-9',
      },
      bearer(token),
    );
    expect(r.status).toBe(200);
    expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'fill', 'fill', 'completed']);
    const orderId = lastData(r).orderId;
    const sent = exec.requests.slice(before).find(isOrderCall)!;
    expect(sent.headers.authorization).toBe(`Bearer ${token}`);
    expect(sent.headers['idempotency-key']).toBe(`order:${orderId}`);
    expect(sent.body).toMatchObject({
      clientOrderId: orderId,
      userId: 'alice',
      marketId: marketA,
      side: 'buy',
      outcome: 'yes',
      size: 5,
      orderType: 'market',
      referrerId: 'ref-9',
      metadata: { eventTitle: 'NC governor' },
    });
    const { order, fills, entries } = await orderRows(app, orderId);
    expect(order).toMatchObject({
      state: 'filled',
      mode: 'live',
      externalOrderId: 'ex-1',
      filledSizeMicros: micros(5),
      notionalMicros: micros(2.77),
    });
    expect(fills.map((f) => [f.priceMicros, f.sizeMicros, f.feeMicros])).toEqual([
      [micros(0.55), micros(3), 0n],
      [micros(0.56), micros(2), 0n],
    ]);
    // The most the order could cost was held, then released against the actual cost.
    expect(entries.map((e) => e.kind)).toEqual(['order_hold', 'order_release', 'trade_buy']);
    expect(entries[0].heldDelta).toBe(micros(5.0005)); // 5 × $1, no fee by default, + a micro-dollar per hundredth
    expect(await app.services.get(LedgerService).balance('alice')).toMatchObject({
      available: micros(100 - 2.77),
      held: 0n,
    });
    expect(await app.services.get(LedgerService).audit()).toEqual([]);
  });

  it('follows a pending order until the service reports its fills', async () => {
    await fund(app, 'bob', 100);
    let polls = 0;
    serve((r) => {
      if (isOrderCall(r)) return { status: 202, body: { id: 'ex-2', status: 'pending' } };
      polls += 1;
      return polls < 3
        ? { body: { id: 'ex-2', status: 'open' } }
        : { body: { id: 'ex-2', status: 'partially_filled', fills: [{ price: 0.6, size: 1.5 }] } };
    });
    const r = await live('bob', { marketId: marketA, side: 'buy', outcome: 'no', size: 4, limitPrice: 0.6 });
    expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'fill', 'completed']);
    expect(exec.requests.filter((q) => q.path === '/orders/ex-2').length).toBe(3);
    expect(lastData(r).order).toMatchObject({ state: 'partially_filled', filledSize: 1.5, limitPrice: 0.6 });
    expect(await app.services.get(LedgerService).balance('bob')).toMatchObject({
      available: micros(100 - 0.9),
      held: 0n,
    });
  });

  it('502 before streaming when the service refuses the submit (4xx); the order failed, hold released', async () => {
    await fund(app, 'carol', 20);
    serve(() => ({ status: 422, body: { error: 'refused' } }));
    const r = await live('carol', { marketId: marketA, side: 'buy', outcome: 'yes', size: 2 });
    expect(r.status).toBe(502);
    expect(r.contentType).toMatch(/^application\/json/);
    expect(r.body).toMatchObject({ error: 'upstream_error', message: 'execution service answered 422' });
    const order = await app.services.db.prisma.order.findFirstOrThrow({ where: { userId: 'carol' } });
    expect(order).toMatchObject({ state: 'failed', failureReason: 'execution service answered 422' });
    expect(await app.services.get(LedgerService).balance('carol')).toMatchObject({ available: micros(20), held: 0n });
  });

  it(
    'the service failing after the stream opened: the outcome is unknown, not failed; the hold stays until the ' +
      'reconciler ends it',
    async () => {
      await fund(app, 'dave', 20);
      serve((r) => (isOrderCall(r) ? { body: { id: 'ex-4', status: 'pending' } } : { status: 500 }));
      const r = await live('dave', { marketId: marketA, side: 'buy', outcome: 'yes', size: 2 });
      expect(r.status).toBe(200);
      expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'outcome_unknown']);
      expect(lastData(r).error).toMatchObject({ code: 'timeout' });
      expect(lastData(r).error!.message).toMatch(/execution service answered 500/);
      expect(lastData(r).order).toMatchObject({ state: 'submitted', externalOrderId: 'ex-4' });
      expect(lastData(r).balance).toEqual({ available: 17.9998, held: 2.0002 });
      expect(await app.services.get(LedgerService).balance('dave')).toMatchObject({
        available: micros(20 - 2.0002),
        held: micros(2.0002),
      });
      // Later the service says what became of it: failed there, so the hold is released, once.
      serve((q) =>
        q.path === '/orders/ex-4'
          ? { body: { id: 'ex-4', status: 'failed', reason: 'venue halted' } }
          : { status: 404 },
      );
      await reconcile();
      const { order } = await orderRows(app, lastData(r).orderId);
      expect(order).toMatchObject({
        state: 'failed',
        failureReason: 'the execution service failed the order: venue halted',
      });
      expect(await app.services.get(LedgerService).balance('dave')).toMatchObject({ available: micros(20), held: 0n });
      expect(await prisma().position.count({ where: { userId: 'dave' } })).toBe(0);
      await reconcile();
      expect(await ledgerKinds(order!.id)).toEqual(['order_hold', 'order_release']);
    },
  );

  it('a rejection by the service fails the order; the wallet-auth token is required', async () => {
    await fund(app, 'erin', 20);
    serve(() => ({ body: { id: 'ex-5', status: 'rejected', reason: 'market halted' } }));
    const r = await live('erin', { marketId: marketA, side: 'buy', outcome: 'yes', size: 1 });
    expect(lastData(r).error).toMatchObject({
      code: 'venue_rejected',
      message: 'the execution service rejected the order: market halted',
    });
    const userToken = await postStream(
      `${app.url}/execute`,
      { mode: 'live', marketId: marketA, side: 'buy', outcome: 'yes', size: 1 },
      await app.bearer('erin'),
    );
    expect(userToken.status).toBe(401);
  });

  it('400 before streaming when the balance cannot cover the most the order may cost', async () => {
    await fund(app, 'frank', 1);
    const requests = exec.requests.length;
    const r = await live('frank', { marketId: marketA, side: 'buy', outcome: 'yes', size: 5 });
    expect(r.status).toBe(400);
    expect(r.body!.message).toMatch(/^size: insufficient balance: the order may cost up to \$5\.00/);
    expect(exec.requests.length).toBe(requests);
  });

  it(
    'a client leaving mid-stream leaves consistent rows: the order settles whole when the service ' + 'answers',
    async () => {
      await fund(app, 'gina', 100);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      serve(async (r) => {
        if (isOrderCall(r)) return { body: { id: 'ex-7', status: 'open' } };
        await gate;
        return { body: { id: 'ex-7', status: 'filled', fills: [{ price: 0.51, size: 4 }] } };
      });
      const reader = await openSse(`${app.url}/execute`, {
        method: 'POST',
        headers: { ...(await app.walletBearer('gina')), 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'live', marketId: marketA, side: 'buy', outcome: 'yes', size: 4 }),
      });
      const seen = await reader.take(3);
      expect(seen.map((m) => m.event)).toEqual(['accepted', 'quote', 'submitted']);
      reader.close(); // gone while the order is still working at the service
      release();
      await app.services.get(ExecutionService).drain();
      const orderId = (JSON.parse(seen[0].data) as { orderId: string }).orderId;
      const { order, fills } = await orderRows(app, orderId);
      expect(order).toMatchObject({ state: 'filled', filledSizeMicros: micros(4) });
      expect(fills).toHaveLength(1);
      const { size, fromFills } = await positionMatchesFills(app, order!.positionId!);
      expect(size).toBe(fromFills);
      expect(await app.services.get(LedgerService).balance('gina')).toMatchObject({
        available: micros(100 - 2.04),
        held: 0n,
      });
      expect(await app.services.get(LedgerService).audit()).toEqual([]);
    },
  );
});

describe('venue_a live: Idempotency-Key after a 502', () => {
  it(
    'a 502 at submit (refused) leaves the key free: the retry with the same key really trades, later retries ' +
      'replay it',
    async () => {
      await fund(app, 'kim', 20);
      let posts = 0;
      serve((r) => {
        if (!isOrderCall(r)) return { status: 404 };
        posts += 1;
        return posts === 1
          ? { status: 409 }
          : { body: { id: 'ex-k', status: 'filled', fills: [{ price: 0.5, size: 2 }] } };
      });
      const body = { marketId: marketA, side: 'buy', outcome: 'yes', size: 2 };
      const key = { 'idempotency-key': 'kim-buy-1' };
      const first = await live('kim', body, key);
      expect(first.status).toBe(502);
      const retry = await live('kim', body, key);
      expect(retry.status).toBe(200);
      expect(names(retry)).toEqual(['accepted', 'quote', 'submitted', 'fill', 'completed']);
      expect(retry.events.every((e) => e.data.replayed === false)).toBe(true);
      expect(posts).toBe(2);
      const orders = await prisma().order.findMany({ where: { userId: 'kim' }, orderBy: { createdAt: 'asc' } });
      expect(orders.map((o) => [o.state, o.idempotencyKey])).toEqual([
        ['failed', null],
        ['filled', 'kim-buy-1'],
      ]);
      const again = await live('kim', body, key);
      expect(again.events.every((e) => e.data.replayed)).toBe(true);
      expect(lastData(again).orderId).toBe(lastData(retry).orderId);
      expect(posts).toBe(2);
      expect(await app.services.get(LedgerService).balance('kim')).toMatchObject({ available: micros(19), held: 0n });
    },
  );
});

describe('venue_a live: an outcome not known yet', () => {
  it(
    'poll deadline: `outcome_unknown`, the order stays submitted with its hold; the reconciler settles it ' + 'once',
    async () => {
      await fund(app, 'ivan', 50);
      let done = false;
      serve((r) => {
        if (isOrderCall(r)) return { body: { id: 'ex-u1', status: 'open' } };
        if (r.path !== '/orders/ex-u1') return { status: 404 };
        return done
          ? {
              body: {
                id: 'ex-u1',
                status: 'filled',
                fills: [
                  { price: 0.5, size: 2 },
                  { price: 0.52, size: 1 },
                ],
              },
            }
          : { body: { id: 'ex-u1', status: 'open' } };
      });
      const body = { marketId: marketA, side: 'buy', outcome: 'yes', size: 3 };
      const key = { 'idempotency-key': 'ivan-1' };
      const r = await live('ivan', body, key);
      expect(r.status).toBe(200);
      expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'outcome_unknown']);
      expect(lastData(r).error).toMatchObject({ code: 'timeout' });
      expect(lastData(r).order).toMatchObject({ state: 'submitted', externalOrderId: 'ex-u1', filledSize: 0 });
      const orderId = lastData(r).orderId;
      const held = micros(3.0003);
      expect(await app.services.get(LedgerService).balance('ivan')).toMatchObject({
        available: micros(50) - held,
        held,
      });
      expect(await ledgerKinds(orderId)).toEqual(['order_hold']);
      // Still open at the service: the reconciler leaves it as it is.
      await reconcile();
      expect((await orderRows(app, orderId)).order).toMatchObject({ state: 'submitted' });
      done = true;
      await reconcile();
      const { order, fills } = await orderRows(app, orderId);
      expect(order).toMatchObject({
        state: 'filled',
        filledSizeMicros: micros(3),
        notionalMicros: micros(1.52),
        externalOrderId: 'ex-u1',
        failureReason: null,
      });
      expect(fills).toHaveLength(2);
      const position = await prisma().position.findUniqueOrThrow({ where: { id: order!.positionId! } });
      expect(position).toMatchObject({ status: 'open', sizeMicros: micros(3), costBasisMicros: micros(1.52) });
      expect(await ledgerKinds(orderId)).toEqual(['order_hold', 'order_release', 'trade_buy']);
      expect(await app.services.get(LedgerService).balance('ivan')).toMatchObject({
        available: micros(50 - 1.52),
        held: 0n,
      });
      // Twice changes nothing.
      await reconcile();
      expect(await ledgerKinds(orderId)).toEqual(['order_hold', 'order_release', 'trade_buy']);
      expect(await prisma().fill.count({ where: { orderId } })).toBe(2);
      expect(await prisma().position.findUniqueOrThrow({ where: { id: position.id } })).toMatchObject({
        sizeMicros: micros(3),
      });
      expect(await app.services.get(LedgerService).audit()).toEqual([]);
      const notes = await prisma().notification.findMany({ where: { userId: 'ivan', kind: 'order_fill' } });
      expect(notes).toHaveLength(1);
      // A retry with the key replays the first run, then what became of the order, the ids going on.
      const retry = await live('ivan', body, key);
      expect(names(retry)).toEqual(['accepted', 'quote', 'submitted', 'outcome_unknown', 'fill', 'fill', 'completed']);
      expect(retry.events.map((e) => e.id)).toEqual(retry.events.map((_, i) => `${orderId}:${i + 1}`));
      expect(retry.events.slice(0, 4).map((e) => e.id)).toEqual(r.events.map((e) => e.id));
      expect(retry.events.every((e) => e.data.replayed)).toBe(true);
      expect(lastData(retry).order).toMatchObject({ state: 'filled', filledSize: 3 });
    },
  );

  it('a submit that times out is re-submitted with the same Idempotency-Key while the stream waits', async () => {
    await fund(app, 'jade', 20);
    const posts: UpstreamRequest[] = [];
    // The first submit is not answered until the test ends: the client gives up on it (UPSTREAM_TIMEOUT_MS).
    const first = gate();
    serve(async (r) => {
      if (!isOrderCall(r)) return { status: 404 };
      posts.push(r);
      if (posts.length === 1) await first.opened;
      return { body: { id: 'ex-j', status: 'filled', fills: [{ price: 0.5, size: 2 }] } };
    });
    const r = await live('jade', { marketId: marketA, side: 'buy', outcome: 'yes', size: 2 }).finally(first.release);
    expect(r.status).toBe(200);
    expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'fill', 'completed']);
    const orderId = lastData(r).orderId;
    expect(posts.map((p) => p.headers['idempotency-key'])).toEqual([`order:${orderId}`, `order:${orderId}`]);
    expect(posts[1].body).toEqual(posts[0].body);
    expect((await orderRows(app, orderId)).order).toMatchObject({ state: 'filled', externalOrderId: 'ex-j' });
    expect(await app.services.get(LedgerService).balance('jade')).toMatchObject({ available: micros(19), held: 0n });
  });

  it(
    'a submit never answered: `outcome_unknown` with no external id; the reconciler re-submits it with the same ' +
      'key',
    async () => {
      await fund(app, 'liam', 20);
      const posts: UpstreamRequest[] = [];
      // No submit is answered until the stream ended: each times out (UPSTREAM_TIMEOUT_MS) unanswered.
      const unanswered = gate();
      serve(async (r) => {
        if (isOrderCall(r)) posts.push(r);
        await unanswered.opened;
        return { status: 500 };
      });
      const r = await live('liam', {
        marketId: marketA,
        side: 'buy',
        outcome: 'no',
        size: 2,
        limitPrice: 0.6,
        eventTitle: 'T',
      }).finally(unanswered.release);
      expect(r.status).toBe(200);
      expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'outcome_unknown']);
      expect(lastData(r).order).toMatchObject({ state: 'submitted', externalOrderId: null });
      const orderId = lastData(r).orderId;
      expect(await app.services.get(LedgerService).balance('liam')).toMatchObject({ held: micros(1.2002) });
      serve((q) =>
        isOrderCall(q)
          ? (posts.push(q), { body: { id: 'ex-l', status: 'partially_filled', fills: [{ price: 0.58, size: 1 }] } })
          : { status: 404 },
      );
      const before = posts.length;
      await reconcile();
      expect(posts.length).toBe(before + 1);
      expect(posts.every((p) => p.headers['idempotency-key'] === `order:${orderId}`)).toBe(true);
      expect(posts[posts.length - 1].body).toEqual(posts[0].body);
      expect((await orderRows(app, orderId)).order).toMatchObject({
        state: 'partially_filled',
        externalOrderId: 'ex-l',
        filledSizeMicros: micros(1),
      });
      expect(await app.services.get(LedgerService).balance('liam')).toMatchObject({
        available: micros(20 - 0.58),
        held: 0n,
      });
      await reconcile();
      expect(posts.length).toBe(before + 1);
    },
  );
});

describe('venue_a live: selling a position held with more than 2 decimals', () => {
  it('a sell without size sells the exact position; a partial size keeps the venue precision', async () => {
    await fund(app, 'lena', 20);
    serve((r) =>
      isOrderCall(r)
        ? { body: { id: 'ex-le', status: 'partially_filled', fills: [{ price: 0.5, size: 1.2345 }] } }
        : { status: 404 },
    );
    const bought = await live('lena', { marketId: marketA, side: 'buy', outcome: 'yes', size: 2 });
    const pos = lastData(bought).position!;
    expect(pos).toMatchObject({ status: 'open', size: 1.2345 });
    // A live position sells live (its own mode), with the wallet-auth token.
    const user = await app.walletBearer('lena');
    const partial = await postStream(`${app.url}/api/positions/${pos.id}/sell`, { size: 1.234 }, user);
    expect(partial.status).toBe(400);
    expect(partial.body!.message).toMatch(/^size: venue_a takes at most 2 decimals/);
    serve((r) =>
      isOrderCall(r)
        ? { body: { id: 'ex-le-sell', status: 'filled', fills: [{ price: 0.5, size: 1.2345 }] } }
        : { status: 404 },
    );
    const sold = await postStream(`${app.url}/api/positions/${pos.id}/sell`, undefined, user);
    expect(sold.status).toBe(200);
    expect(lastData(sold).event).toBe('completed');
    expect(lastData(sold).order).toMatchObject({ side: 'sell', requestedSize: 1.2345, filledSize: 1.2345 });
    expect(lastData(sold).position).toMatchObject({ id: pos.id, status: 'closed', size: 0 });
  });

  it('the exact size given explicitly sells the whole position too', async () => {
    await fund(app, 'lou', 20);
    serve((r) =>
      isOrderCall(r)
        ? { body: { id: 'ex-lo', status: 'partially_filled', fills: [{ price: 0.5, size: 0.555 }] } }
        : { status: 404 },
    );
    const pos = lastData(await live('lou', { marketId: marketA, side: 'buy', outcome: 'no', size: 1 })).position!;
    serve((r) =>
      isOrderCall(r)
        ? { body: { id: 'ex-lo-sell', status: 'filled', fills: [{ price: 0.5, size: 0.555 }] } }
        : { status: 404 },
    );
    const sold = await postStream(
      `${app.url}/api/positions/${pos.id}/sell`,
      { size: 0.555 },
      await app.walletBearer('lou'),
    );
    expect(lastData(sold).position).toMatchObject({ status: 'closed', size: 0 });
  });
});

describe('venue_b live: inside the service, never the execution service', () => {
  // Here venue_b is the simulated one: its live orders trade in the paper account (see
  // live-on-simulated-venue.test.ts); a live venue_b is in execute-live-venue-b.rest.test.ts.
  it('runs the order in the service, in the paper account', async () => {
    await fund(app, 'hank', 100);
    const requests = exec.requests.length;
    const r = await live('hank', { marketId: marketB, side: 'buy', outcome: 'yes', size: 6 });
    expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'fill', 'completed']);
    expect(exec.requests.length).toBe(requests); // the execution service is for venue_a only
    const { order, fills } = await orderRows(app, lastData(r).orderId);
    expect(order).toMatchObject({ venue: 'venue_b', mode: 'simulation', state: 'filled' });
    expect(fills[0].feeMicros).toBeGreaterThan(0n);
    expect(await app.services.get(LedgerService).balance('hank')).toMatchObject({ available: micros(100), held: 0n });
    expect(await app.services.get(LedgerService).audit()).toEqual([]);
  });
});
