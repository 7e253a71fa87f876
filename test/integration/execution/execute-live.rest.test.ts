import { startTestApp, type TestApp } from '../../utils/app';
import { startFakeUpstream, type FakeUpstream, type UpstreamReply, type UpstreamRequest } from '../../utils/fake-upstream';
import { activeMatchedEvent, pinnedWorld } from '../../utils/pinned-world';
import { openSse } from '../../utils/sse';
import { fund, names, orderRows, positionMatchesFills, postStream, type StreamResult } from './trading-helpers';

let app: TestApp;
let exec: FakeUpstream;
const pinned = pinnedWorld();
const event = activeMatchedEvent(pinned.world);
const marketA = event.markets[0]!.venueMarketIds.venue_a!;
const marketB = event.markets[0]!.venueMarketIds.venue_b!;
beforeAll(async () => {
  exec = await startFakeUpstream(() => ({ status: 500 }));
  app = await startTestApp({ EXECUTION_SERVICE_URL: exec.url, EXECUTION_POLL_MS: '10' }, {}, { world: pinned.world, now: pinned.now });
});
afterAll(async () => {
  await app.close();
  await exec.close();
});

const M = (x: number) => BigInt(Math.round(x * 1e6));
const last = (r: StreamResult) => r.events[r.events.length - 1]!.data;
const wallet = async (sub: string) => ({ authorization: `Bearer ${await app.walletToken(sub)}` });
const live = async (sub: string, json: Record<string, unknown>, extra: Record<string, string> = {}) =>
  postStream(`${app.url}/execute`, { mode: 'live', ...json }, { ...(await wallet(sub)), ...extra });
const orderCall = (r: UpstreamRequest) => r.method === 'POST' && r.path === '/orders';
const serve = (handler: (r: UpstreamRequest) => UpstreamReply | Promise<UpstreamReply>) => exec.handle(handler);

describe('venue_a live: the execution service', () => {
  it('forwards the order with the wallet token and an idempotency key, then records its fills', async () => {
    await fund(app, 'alice', 100);
    serve((r) => (orderCall(r) ? { body: { id: 'ex-1', status: 'filled', fills: [{ price: 0.55, size: 3 }, { price: 0.56, size: 2 }] } } : { status: 404 }));
    const before = exec.requests.length;
    const token = await app.walletToken('alice');
    const r = await postStream(
      `${app.url}/execute`,
      { mode: 'live', marketId: marketA, side: 'buy', outcome: 'yes', size: 5, eventTitle: 'NC governor', referrerId: 'ref-9' },
      { authorization: `Bearer ${token}` },
    );
    expect(r.status).toBe(200);
    expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'fill', 'fill', 'completed']);
    const orderId = last(r).orderId;
    const sent = exec.requests.slice(before).find(orderCall)!;
    expect(sent.headers.authorization).toBe(`Bearer ${token}`);
    expect(sent.headers['idempotency-key']).toBe(`order:${orderId}`);
    expect(sent.body).toMatchObject({ clientOrderId: orderId, userId: 'alice', marketId: marketA, side: 'buy', outcome: 'yes', size: 5, orderType: 'market', referrerId: 'ref-9', metadata: { eventTitle: 'NC governor' } });
    const { order, fills, entries } = await orderRows(app, orderId);
    expect(order).toMatchObject({ state: 'filled', mode: 'live', externalOrderId: 'ex-1', filledSizeMicros: M(5), notionalMicros: M(2.77) });
    expect(fills.map((f) => [f.priceMicros, f.sizeMicros, f.feeMicros])).toEqual([
      [M(0.55), M(3), 0n],
      [M(0.56), M(2), 0n],
    ]);
    // The most the order could cost was held, then released against the actual cost.
    expect(entries.map((e) => e.kind)).toEqual(['order_hold', 'order_release', 'trade_buy']);
    expect(entries[0]!.heldDelta).toBe(M(5.0005)); // 5 × $1, no fee by default, + a micro-dollar per hundredth
    expect(await app.services.ledger.balance('alice')).toMatchObject({ available: M(100 - 2.77), held: 0n });
    expect(await app.services.ledger.audit()).toEqual([]);
  });

  it('follows a pending order until the service reports its fills', async () => {
    await fund(app, 'bob', 100);
    let polls = 0;
    serve((r) => {
      if (orderCall(r)) return { status: 202, body: { id: 'ex-2', status: 'pending' } };
      polls += 1;
      return polls < 3 ? { body: { id: 'ex-2', status: 'open' } } : { body: { id: 'ex-2', status: 'partially_filled', fills: [{ price: 0.6, size: 1.5 }] } };
    });
    const r = await live('bob', { marketId: marketA, side: 'buy', outcome: 'no', size: 4, limitPrice: 0.6 });
    expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'fill', 'completed']);
    expect(exec.requests.filter((q) => q.path === '/orders/ex-2').length).toBe(3);
    expect(last(r).order).toMatchObject({ state: 'partially_filled', filledSize: 1.5, limitPrice: 0.6 });
    expect(await app.services.ledger.balance('bob')).toMatchObject({ available: M(100 - 0.9), held: 0n });
  });

  it('502 before streaming when the service fails at submit; the order is failed and the hold released', async () => {
    await fund(app, 'carol', 20);
    serve(() => ({ status: 503, body: { error: 'down' } }));
    const r = await live('carol', { marketId: marketA, side: 'buy', outcome: 'yes', size: 2 });
    expect(r.status).toBe(502);
    expect(r.contentType).toMatch(/^application\/json/);
    expect(r.body).toMatchObject({ error: 'upstream_error', message: 'execution service answered 503' });
    const order = await app.services.db.prisma.order.findFirstOrThrow({ where: { userId: 'carol' } });
    expect(order).toMatchObject({ state: 'failed', failureReason: 'execution service answered 503' });
    expect(await app.services.ledger.balance('carol')).toMatchObject({ available: M(20), held: 0n });
  });

  it('a `failed` event when the service fails after the stream opened', async () => {
    await fund(app, 'dave', 20);
    serve((r) => (orderCall(r) ? { body: { id: 'ex-4', status: 'pending' } } : { status: 500 }));
    const r = await live('dave', { marketId: marketA, side: 'buy', outcome: 'yes', size: 2 });
    expect(r.status).toBe(200);
    expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'failed']);
    expect(last(r).error).toEqual({ code: 'upstream_error', message: 'execution service answered 500' });
    expect(last(r).order).toMatchObject({ state: 'failed', externalOrderId: 'ex-4' });
    expect(await app.services.ledger.balance('dave')).toMatchObject({ available: M(20), held: 0n });
  });

  it('a rejection by the service fails the order; the wallet-auth token is required', async () => {
    await fund(app, 'erin', 20);
    serve(() => ({ body: { id: 'ex-5', status: 'rejected', reason: 'market halted' } }));
    const r = await live('erin', { marketId: marketA, side: 'buy', outcome: 'yes', size: 1 });
    expect(last(r).error).toMatchObject({ code: 'venue_rejected', message: 'the execution service rejected the order: market halted' });
    const userToken = await postStream(`${app.url}/execute`, { mode: 'live', marketId: marketA, side: 'buy', outcome: 'yes', size: 1 }, { authorization: `Bearer ${await app.token('erin')}` });
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

  it('a client leaving mid-stream leaves consistent rows: the order settles whole when the service answers', async () => {
    await fund(app, 'gina', 100);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    serve(async (r) => {
      if (orderCall(r)) return { body: { id: 'ex-7', status: 'open' } };
      await gate;
      return { body: { id: 'ex-7', status: 'filled', fills: [{ price: 0.51, size: 4 }] } };
    });
    const reader = await openSse(`${app.url}/execute`, {
      method: 'POST',
      headers: { ...(await wallet('gina')), 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'live', marketId: marketA, side: 'buy', outcome: 'yes', size: 4 }),
    });
    const seen = await reader.take(3);
    expect(seen.map((m) => m.event)).toEqual(['accepted', 'quote', 'submitted']);
    reader.close(); // gone while the order is still working at the service
    release();
    await app.services.execution.drain();
    const orderId = (JSON.parse(seen[0]!.data) as { orderId: string }).orderId;
    const { order, fills } = await orderRows(app, orderId);
    expect(order).toMatchObject({ state: 'filled', filledSizeMicros: M(4) });
    expect(fills).toHaveLength(1);
    const { size, fromFills } = await positionMatchesFills(app, order!.positionId!);
    expect(size).toBe(fromFills);
    expect(await app.services.ledger.balance('gina')).toMatchObject({ available: M(100 - 2.04), held: 0n });
    expect(await app.services.ledger.audit()).toEqual([]);
  });
});

describe('venue_b live: inside the service, through its venue client', () => {
  it('places the order at the venue and records its fills and fees', async () => {
    await fund(app, 'hank', 100);
    const requests = exec.requests.length;
    const r = await live('hank', { marketId: marketB, side: 'buy', outcome: 'yes', size: 6 });
    expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'fill', 'completed']);
    expect(exec.requests.length).toBe(requests); // the execution service is for venue_a only
    const { order, fills, entries } = await orderRows(app, last(r).orderId);
    expect(order).toMatchObject({ venue: 'venue_b', mode: 'live', state: 'filled' });
    expect(order!.externalOrderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(fills[0]!.feeMicros).toBeGreaterThan(0n);
    expect(entries.map((e) => e.kind)).toEqual(['order_hold', 'order_release', 'trade_buy', 'trading_fee']);
    expect((await app.services.ledger.balance('hank')).held).toBe(0n);
    expect(await app.services.ledger.audit()).toEqual([]);
  });
});
