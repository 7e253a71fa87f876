import { ExecutionService } from '../../../src/modules/execution/execution.service';
import { VenueBOrders } from '../../../src/modules/execution/venue-b-orders';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { startTestApp, type TestApp } from '../../support/app';
import { lastData, names, postStream, type StreamResult } from '../../support/execution-stream';
import type { FakeVenues } from '../../support/fake-venues';
import { fund } from '../../support/funding';
import { micros } from '../../support/money';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { orderRows, positionMatchesFills, startLiveVenueB } from './trading-helpers';

/**
 * A live venue_b order whose placement fails while its process lives. When the venue may have taken
 * it (the answer timed out or the connection reset after the request was sent, or the venue
 * answered 5xx) the order stays `submitted` with its hold, the stream ends `outcome_unknown`, and
 * the reconciler asks the venue for it by its client order id once `EXECUTION_STALE_ORDER_MS` has
 * passed since, whatever its process: settled from the venue's fills, or ended (hold released) when
 * the venue has none. Never placed twice. When it was never sent (connection refused) it fails at
 * once. The venue is a local server in Kalshi's shapes; it takes the order, or not, as each test says.
 */
const pinned = pinnedWorld();
const marketB = activeMatchedEvent(pinned.world).markets[0].venueMarketIds.venue_b!;
const PLACE = { api: 'kalshi' as const, method: 'POST', path: '/portfolio/orders' };

let fake: FakeVenues;
let app: TestApp;
beforeAll(async () => {
  const venue = await startLiveVenueB([marketB]);
  fake = venue.fake;
  // The reconciler runs when the tests say, and asks about a handed-over order a minute after.
  app = await startTestApp(
    { ...venue.env, EXECUTION_RECONCILE_MS: '0', EXECUTION_STALE_ORDER_MS: '60000' },
    {},
    pinned,
  );
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const prisma = () => app.services.db.prisma;
const reconcile = () => app.services.get(ExecutionService).reconcile();
const balance = (userId: string) => app.services.get(LedgerService).balance(userId);
const orderPosts = () => fake.requestsTo('kalshi', '/portfolio/orders').filter((r) => r.method === 'POST').length;

async function execute(userId: string, body: Record<string, unknown>, key?: string): Promise<StreamResult> {
  const headers = { ...(await app.walletBearer(userId)), ...(key && { 'idempotency-key': key }) };
  return postStream(
    `${app.url}/execute`,
    { mode: 'live', marketId: `venue_b:${marketB}`, outcome: 'yes', ...body },
    headers,
  );
}

/** As if `EXECUTION_STALE_ORDER_MS` had passed since the order was handed to the reconciler. */
async function afterStaleDelay(orderId: string): Promise<void> {
  await prisma().order.update({ where: { id: orderId }, data: { updatedAt: new Date(Date.now() - 120_000) } });
}

describe('a live venue_b order whose answer is lost', () => {
  it('taken and filled, then the answer timed out: outcome_unknown, then filled; the key replays it', async () => {
    await fund(app, 'tina', 50);
    fake.fault(PLACE, { kind: 'lost', then: 'hang' });
    const before = orderPosts();
    const r = await execute('tina', { side: 'buy', size: 3 }, 'lost-answer');
    expect(r.status).toBe(200);
    expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'outcome_unknown']);
    const last = lastData(r);
    const orderId = last.orderId;
    expect(last.order).toMatchObject({ id: orderId, state: 'submitted' });
    expect(last.error).toMatchObject({ code: 'timeout', message: expect.stringMatching(/no answer within 3000 ms/) });
    expect(last.balance!.held).toBeGreaterThan(0);
    // Handed to the reconciler: no runner follows it, though its process lives; the hold is kept.
    const handed = (await orderRows(app, orderId)).order!;
    expect(handed).toMatchObject({ state: 'submitted', ownerId: null, externalOrderId: null });
    expect(handed.failureReason).toMatch(/^outcome unknown: venue_b's answer to the order was lost/);
    expect(await balance('tina')).toMatchObject({ held: micros(last.balance!.held) });

    // Within the stale delay the venue is not asked yet (a late request could still be on its way).
    expect(await reconcile()).toBe(0);
    const early = await execute('tina', { side: 'buy', size: 3 }, 'lost-answer');
    expect(names(early)).toEqual(['accepted', 'quote', 'submitted', 'outcome_unknown']);

    await afterStaleDelay(orderId);
    expect(await reconcile()).toBe(1);
    const { order, fills, entries } = await orderRows(app, orderId);
    const venueOrderId = Object.keys(fake.data.venueB.orders).find(
      (id) => fake.data.venueB.orders[id].client_order_id === orderId,
    );
    expect(order).toMatchObject({ state: 'filled', externalOrderId: venueOrderId, filledSizeMicros: micros(3) });
    expect(fills.map((f) => [f.priceMicros, f.sizeMicros])).toEqual([[micros(0.55), micros(3)]]);
    expect(entries.map((e) => e.kind)).toEqual(['order_hold', 'order_release', 'trade_buy', 'trading_fee']);
    const fee = fills[0].feeMicros;
    expect(await balance('tina')).toMatchObject({ available: micros(50) - micros(1.65) - fee, held: 0n });
    expect(await positionMatchesFills(app, order!.positionId!)).toEqual({ size: micros(3), fromFills: micros(3) });
    expect(await app.services.get(LedgerService).audit()).toEqual([]);

    // A retry of the key replays the first run, then what became of the order; nothing is placed again.
    const replay = await execute('tina', { side: 'buy', size: 3 }, 'lost-answer');
    expect(names(replay)).toEqual(['accepted', 'quote', 'submitted', 'outcome_unknown', 'fill', 'completed']);
    expect(lastData(replay).order).toMatchObject({ id: orderId, state: 'filled' });
    expect(orderPosts()).toBe(before + 1);
    expect(await prisma().order.count({ where: { userId: 'tina' } })).toBe(1);
  });

  it('a 502 for an order the venue never took: outcome_unknown, then failed with its hold released', async () => {
    await fund(app, 'otto', 20);
    fake.fault(PLACE, { kind: 'status', status: 502 });
    const r = await execute('otto', { side: 'buy', size: 2 });
    expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'outcome_unknown']);
    expect(lastData(r).error!.message).toMatch(/answered 502/);
    const orderId = lastData(r).orderId;
    expect((await balance('otto')).held).toBeGreaterThan(0n);
    expect(await prisma().position.count({ where: { userId: 'otto', status: 'pending' } })).toBe(1);

    await afterStaleDelay(orderId);
    expect(await reconcile()).toBe(1);
    const { order, entries } = await orderRows(app, orderId);
    expect(order).toMatchObject({ state: 'failed', externalOrderId: null });
    expect(order!.failureReason).toMatch(/never reached venue_b/);
    expect(entries.map((e) => e.kind)).toEqual(['order_hold', 'order_release']);
    expect(await balance('otto')).toMatchObject({ available: micros(20), held: 0n });
    expect(await prisma().position.count({ where: { userId: 'otto' } })).toBe(0);
  });

  it('an unexpected error after the venue filled it: handed to the reconciler, never failed', async () => {
    await fund(app, 'umar', 20);
    const orders = app.services.get(VenueBOrders);
    const place = orders.placeOrder.bind(orders);
    const spy = jest.spyOn(orders, 'placeOrder').mockImplementationOnce(async (o) => {
      await place(o);
      throw new TypeError('a fault after the venue answered');
    });
    try {
      const r = await execute('umar', { side: 'buy', size: 2 });
      expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'outcome_unknown']);
      expect(lastData(r).error).toMatchObject({ code: 'internal' });
      const orderId = lastData(r).orderId;
      expect((await orderRows(app, orderId)).order).toMatchObject({ state: 'submitted', ownerId: null });
      await afterStaleDelay(orderId);
      expect(await reconcile()).toBe(1);
      expect((await orderRows(app, orderId)).order).toMatchObject({ state: 'filled', filledSizeMicros: micros(2) });
      expect((await balance('umar')).held).toBe(0n);
    } finally {
      spy.mockRestore();
    }
  });

  it('cancelled by the venue without a fill: the runner records what the reconciler records', async () => {
    await fund(app, 'cleo', 20);
    // A limit of 10¢ under the 55¢ ask: nothing fillable, the immediate-or-cancel order is cancelled.
    const ran = await execute('cleo', { side: 'buy', size: 2, limitPrice: 0.1 });
    expect(names(ran)).toEqual(['accepted', 'quote', 'submitted', 'completed']);
    const ranRow = (await orderRows(app, lastData(ran).orderId)).order!;

    // The same answer, lost on the way back (the connection reset): the reconciler learns it from the venue.
    fake.fault(PLACE, { kind: 'lost', then: 'reset' });
    const cut = await execute('cleo', { side: 'buy', size: 2, limitPrice: 0.1 });
    expect(names(cut)).toEqual(['accepted', 'quote', 'submitted', 'outcome_unknown']);
    await afterStaleDelay(lastData(cut).orderId);
    expect(await reconcile()).toBe(1);
    const reconciledRow = (await orderRows(app, lastData(cut).orderId)).order!;

    expect(ranRow).toMatchObject({ state: 'cancelled', failureReason: 'venue_b canceled the order without a fill' });
    expect(reconciledRow).toMatchObject({ state: ranRow.state, failureReason: ranRow.failureReason });
    expect(ranRow.externalOrderId).not.toBeNull();
    expect(reconciledRow.externalOrderId).not.toBeNull();
    expect(lastData(ran).order).toMatchObject({ state: 'cancelled' });
    expect(await balance('cleo')).toMatchObject({ available: micros(20), held: 0n });
  });
});

describe('a live venue_b order that never left (connection refused)', () => {
  let gone: FakeVenues;
  let alone: TestApp;
  beforeAll(async () => {
    const venue = await startLiveVenueB([marketB]);
    gone = venue.fake;
    alone = await startTestApp({ ...venue.env, EXECUTION_RECONCILE_MS: '0' }, {}, pinned);
    // The venue is gone once the app has its markets: every connection to it is refused.
    await gone.close();
  });
  afterAll(() => alone.close());

  it('fails at once, its hold released, and is left to no reconciler', async () => {
    await fund(alone, 'rosa', 20);
    const r = await postStream(
      `${alone.url}/execute`,
      { mode: 'live', marketId: `venue_b:${marketB}`, side: 'buy', outcome: 'yes', size: 2 },
      await alone.walletBearer('rosa'),
    );
    // No quote either: the book could not be read.
    expect(names(r)).toEqual(['accepted', 'submitted', 'failed']);
    expect(lastData(r).error).toMatchObject({ code: 'venue_unavailable' });
    const { order, entries } = await orderRows(alone, lastData(r).orderId);
    expect(order).toMatchObject({ state: 'failed' });
    expect(entries.map((e) => e.kind)).toEqual(['order_hold', 'order_release']);
    expect(await alone.services.get(LedgerService).balance('rosa')).toMatchObject({ available: micros(20), held: 0n });
    expect(await alone.services.get(ExecutionService).reconcile()).toBe(0);
  });
});
