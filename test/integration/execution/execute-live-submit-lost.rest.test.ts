import net from 'node:net';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { ExecutionService } from '../../../src/modules/execution/execution.service';
import { startTestApp, type TestApp } from '../../support/app';
import type { FakeUpstream, UpstreamRequest } from '../../support/fake-upstream';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { lastData, names, postStream, type StreamResult } from '../../support/execution-stream';
import { fund } from '../../support/funding';
import { micros } from '../../support/money';
import { isOrderCall, orderRows, positionMatchesFills, startWithExecutionService } from './trading-helpers';

/**
 * A live venue_a submit whose answer never arrives whole is told apart by whether the execution
 * service may have taken the order. Maybe sent (no answer within the timeout after it was written,
 * a 5xx): the stream opens and ends `outcome_unknown`, the order `submitted` with its hold; the
 * reconciler submits it again with the same `Idempotency-Key` until the service answers finally,
 * so a service that took it has one order, settled once. Never sent (connection refused) or
 * refused (4xx): a 502 before the stream, the order failed and its hold released.
 */
const pinned = pinnedWorld();
const marketA = activeMatchedEvent(pinned.world).markets[0].venueMarketIds.venue_a!;
const buy = { mode: 'live', marketId: marketA, side: 'buy', outcome: 'yes', size: 2 };
/** The most a 2-contract venue_a buy may cost: 2 × $1 plus a micro-dollar per hundredth of a contract. */
const HELD = micros(2.0002);

interface ServiceOrder {
  id: string;
  status: 'filled' | 'failed';
  fills: { price: number; size: number }[];
  reason?: string;
}

/**
 * A stateful execution service over the fake upstream: it takes each order once per
 * Idempotency-Key (a submit again answers the order it has) and decides it with `decide`; `fault`
 * makes it lose its answers: `none`, `hang` (taken, the answer held until the client gave up),
 * `502-after-taking` (taken, answered 502), `502-before-taking` (not taken, answered 502), `refuse`
 * (not taken, answered 422).
 */
function executionService(exec: FakeUpstream) {
  const orders = new Map<string, ServiceOrder>();
  const posts: UpstreamRequest[] = [];
  const held: (() => void)[] = [];
  const state = {
    fault: 'none' as 'none' | 'hang' | '502-after-taking' | '502-before-taking' | 'refuse',
    decide: (size: number): Omit<ServiceOrder, 'id'> => ({ status: 'filled', fills: [{ price: 0.5, size }] }),
  };
  exec.handle(async (r) => {
    if (!isOrderCall(r)) {
      const o = [...orders.values()].find((x) => r.path === `/orders/${x.id}`);
      return o ? { body: o } : { status: 404 };
    }
    posts.push(r);
    if (state.fault === 'refuse') return { status: 422, body: { error: 'market closed' } };
    if (state.fault === '502-before-taking') return { status: 502, body: { error: 'bad gateway' } };
    const key = String(r.headers['idempotency-key']);
    let o = orders.get(key);
    if (!o) {
      o = { id: `svc-${orders.size + 1}`, ...state.decide((r.body as { size: number }).size) };
      orders.set(key, o);
    }
    if (state.fault === '502-after-taking') return { status: 502, body: { error: 'bad gateway' } };
    if (state.fault === 'hang') {
      await new Promise<void>((resolve) => held.push(resolve));
      return { status: 504 };
    }
    return { body: o };
  });
  return {
    state,
    orders,
    posts,
    /** Lets the held answers go (to clients that gave up on them long ago). */
    release: () => held.splice(0).forEach((go) => go()),
  };
}

describe('venue_a live: a submit whose answer is lost', () => {
  let app: TestApp;
  let exec: FakeUpstream;
  let service: ReturnType<typeof executionService>;
  beforeAll(async () => {
    // A short wait and upstream timeout: the stream gives up on a lost answer in a second or two.
    ({ app, exec } = await startWithExecutionService(pinned, {
      EXECUTION_WAIT_MS: '1500',
      UPSTREAM_TIMEOUT_MS: '1000',
    }));
    service = executionService(exec);
  });
  beforeEach(() => {
    service.orders.clear();
    service.posts.length = 0;
  });

  afterEach(() => {
    service.release();
    service.state.fault = 'none';
  });
  afterAll(async () => {
    await app.close();
    await exec.close();
  });

  const live = async (sub: string, extra: Record<string, string> = {}) =>
    postStream(`${app.url}/execute`, buy, { ...(await app.walletBearer(sub)), ...extra });
  const reconcile = () => app.services.get(ExecutionService).reconcile();
  const balance = (userId: string) => app.services.get(LedgerService).balance(userId);
  const ledgerKinds = async (orderId: string) => (await orderRows(app, orderId)).entries.map((e) => e.kind);

  /** The stream ended `outcome_unknown`: the order submitted, no external id, its hold kept. */
  async function expectHandedOver(r: StreamResult, userId: string, why: RegExp): Promise<string> {
    expect(r.status).toBe(200);
    expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'outcome_unknown']);
    const last = lastData(r);
    expect(last.error).toMatchObject({ code: 'timeout' });
    expect(last.error!.message).toMatch(why);
    expect(last.order).toMatchObject({ state: 'submitted', externalOrderId: null, filledSize: 0 });
    expect(last.balance).toEqual({ available: 20 - 2.0002, held: 2.0002 });
    expect(await balance(userId)).toMatchObject({ available: micros(20) - HELD, held: HELD });
    expect(await ledgerKinds(last.orderId)).toEqual(['order_hold']);
    return last.orderId;
  }

  /** The reconciler re-submitted the order with its key and settled the service's one fill of 2 at 50¢, once. */
  async function expectSettledOnce(orderId: string, userId: string): Promise<void> {
    const { order, fills } = await orderRows(app, orderId);
    expect(order).toMatchObject({ state: 'filled', externalOrderId: 'svc-1', filledSizeMicros: micros(2) });
    expect(fills.map((f) => [f.priceMicros, f.sizeMicros])).toEqual([[micros(0.5), micros(2)]]);
    const { size, fromFills } = await positionMatchesFills(app, order!.positionId!);
    expect(size).toBe(micros(2));
    expect(fromFills).toBe(size);
    expect(await ledgerKinds(orderId)).toEqual(['order_hold', 'order_release', 'trade_buy']);
    expect(await balance(userId)).toMatchObject({ available: micros(19), held: 0n });
    // One order at the service, however often it was submitted: every submit carried the order's key and body.
    expect(service.orders.size).toBe(1);
    expect(service.posts.length).toBeGreaterThanOrEqual(2);
    expect(service.posts.every((p) => p.headers['idempotency-key'] === `order:${orderId}`)).toBe(true);
    expect(service.posts.every((p) => JSON.stringify(p.body) === JSON.stringify(service.posts[0].body))).toBe(true);
    // A second run changes nothing.
    await reconcile();
    expect(await ledgerKinds(orderId)).toEqual(['order_hold', 'order_release', 'trade_buy']);
    expect(await app.services.get(LedgerService).audit()).toEqual([]);
  }

  it('taken and filled, its answer lost to the timeout: `outcome_unknown`, then reconciled to filled', async () => {
    await fund(app, 'ana', 20);
    service.state.fault = 'hang';
    const orderId = await expectHandedOver(await live('ana'), 'ana', /execution service timed out/);
    expect(service.orders.size).toBe(1);
    // The service answers again: the re-submit with the same key finds the order it took, filled.
    service.state.fault = 'none';
    expect(await reconcile()).toBe(1);
    await expectSettledOnce(orderId, 'ana');
  });

  it('taken and filled, answered 502: `outcome_unknown`, then reconciled to filled', async () => {
    await fund(app, 'ben', 20);
    service.state.fault = '502-after-taking';
    const orderId = await expectHandedOver(await live('ben'), 'ben', /execution service answered 502/);
    expect(await reconcile()).toBe(0); // still answering 502: left for the next run, its hold kept
    expect((await orderRows(app, orderId)).order).toMatchObject({ state: 'submitted' });
    service.state.fault = 'none';
    expect(await reconcile()).toBe(1);
    await expectSettledOnce(orderId, 'ben');
  });

  it('a retry with the Idempotency-Key replays `outcome_unknown`, then the fills: never a second order', async () => {
    await fund(app, 'cole', 20);
    service.state.fault = '502-after-taking';
    const key = { 'idempotency-key': 'cole-1' };
    const first = await live('cole', key);
    const orderId = await expectHandedOver(first, 'cole', /answered 502/);
    service.state.fault = 'none';
    await reconcile();
    const retry = await live('cole', key);
    expect(names(retry)).toEqual(['accepted', 'quote', 'submitted', 'outcome_unknown', 'fill', 'completed']);
    expect(lastData(retry)).toMatchObject({ orderId, order: { state: 'filled', filledSize: 2 } });
    await expectSettledOnce(orderId, 'cole');
  });

  it('a 502 before the service took it: `outcome_unknown` with its hold, failed once the service says so', async () => {
    await fund(app, 'dora', 20);
    service.state.fault = '502-before-taking';
    const orderId = await expectHandedOver(await live('dora'), 'dora', /execution service answered 502/);
    expect(service.orders.size).toBe(0);
    // The re-submit reaches the service, which now fails the order (the market closed meanwhile).
    service.state.fault = 'none';
    service.state.decide = () => ({ status: 'failed', fills: [], reason: 'market closed' });
    try {
      expect(await reconcile()).toBe(1);
    } finally {
      service.state.decide = (size) => ({ status: 'filled', fills: [{ price: 0.5, size }] });
    }
    const { order, fills } = await orderRows(app, orderId);
    expect(order).toMatchObject({
      state: 'failed',
      externalOrderId: 'svc-1',
      failureReason: 'the execution service failed the order: market closed',
    });
    expect(fills).toHaveLength(0);
    expect(await ledgerKinds(orderId)).toEqual(['order_hold', 'order_release']);
    expect(await balance('dora')).toMatchObject({ available: micros(20), held: 0n });
    expect(await app.services.db.prisma.position.count({ where: { userId: 'dora' } })).toBe(0);
    expect(service.posts.every((p) => p.headers['idempotency-key'] === `order:${orderId}`)).toBe(true);
  });

  it('a submit the service refuses (4xx): 502 before the stream, the order failed, nothing held', async () => {
    await fund(app, 'eve', 20);
    service.state.fault = 'refuse';
    const r = await live('eve');
    expect(r.status).toBe(502);
    expect(r.body).toEqual({ error: 'upstream_error', message: 'execution service answered 422' });
    expect(service.posts).toHaveLength(1);
    const order = await app.services.db.prisma.order.findFirstOrThrow({ where: { userId: 'eve' } });
    expect(order).toMatchObject({ state: 'failed', failureReason: 'execution service answered 422' });
    expect(await balance('eve')).toMatchObject({ available: micros(20), held: 0n });
  });
});

describe('venue_a live: the execution service refusing connections', () => {
  let app: TestApp;
  beforeAll(async () => {
    // A loopback port nothing listens on (bound, then closed): every connection is refused.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    app = await startTestApp({ EXECUTION_SERVICE_URL: `http://127.0.0.1:${port}` }, {}, pinned);
  });
  afterAll(async () => {
    await app.close();
  });

  it('502 before the stream: nothing was sent, so the order is failed at once and nothing stays held', async () => {
    await fund(app, 'finn', 20);
    const key = { 'idempotency-key': 'finn-1' };
    const r = await postStream(`${app.url}/execute`, buy, { ...(await app.walletBearer('finn')), ...key });
    expect(r.status).toBe(502);
    expect(r.contentType).toMatch(/^application\/json/);
    expect(r.body).toEqual({ error: 'upstream_error', message: 'execution service is unreachable' });
    const order = await app.services.db.prisma.order.findFirstOrThrow({ where: { userId: 'finn' } });
    expect(order).toMatchObject({
      state: 'failed',
      failureReason: 'execution service is unreachable',
      idempotencyKey: null, // the key is free: a retry trades
    });
    expect((await orderRows(app, order.id)).entries.map((e) => e.kind)).toEqual(['order_hold', 'order_release']);
    expect(await app.services.get(LedgerService).balance('finn')).toMatchObject({ available: micros(20), held: 0n });
    expect(await app.services.get(ExecutionService).reconcile()).toBe(0);
  });
});
