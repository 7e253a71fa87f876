import { randomUUID } from 'node:crypto';
import { ProcessOwner } from '../../../src/db/process-owner';
import { ExecutionService } from '../../../src/modules/execution/execution.service';
import type { OrderDraft } from '../../../src/modules/execution/execution.models';
import { lookUpMarket } from '../../../src/modules/execution/market-lookup';
import { TradeRecorder } from '../../../src/modules/execution/trade-recorder';
import { EventsService } from '../../../src/modules/events/events.service';
import { FeeListeners } from '../../../src/modules/ledger/fee-events';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { MarketsService } from '../../../src/modules/markets/markets.service';
import { PaperAccounts } from '../../../src/modules/paper';
import { startTestApp, type TestApp } from '../../support/app';
import type { FakeVenues } from '../../support/fake-venues';
import { fund } from '../../support/funding';
import { micros } from '../../support/money';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { orderRows, positionMatchesFills, startLiveVenueB } from './trading-helpers';

/**
 * Live venue_b orders whose process died between placing them and recording the venue's answer:
 * the order row is `submitted` with its hold, named after a process that is gone. The reconciler
 * asks the venue (a local server in Kalshi's shapes) for the order placed with the order's id as
 * its client order id, and ends it by what the venue says. The rows are written by the product's
 * own recorder, as the runner writes them before it asks the venue.
 */
const pinned = pinnedWorld();
const marketB = activeMatchedEvent(pinned.world).markets[0].venueMarketIds.venue_b!;
const GONE = 'a-process-that-died';
let fake: FakeVenues;
let app: TestApp;
beforeAll(async () => {
  const venue = await startLiveVenueB([marketB]);
  fake = venue.fake;
  // The reconciler runs when the tests say; an order whose process is gone is asked about after 1 s.
  app = await startTestApp({ ...venue.env, EXECUTION_RECONCILE_MS: '0', EXECUTION_STALE_ORDER_MS: '1000' }, {}, pinned);
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const prisma = () => app.services.db.prisma;
const reconcile = () => app.services.get(ExecutionService).reconcile();
const ledger = () => app.services.get(LedgerService);

/** A recorder writing in the name of `ownerId` (a process other than the app's). */
function recorderOf(ownerId: string): TradeRecorder {
  const s = app.services;
  return new TradeRecorder(prisma(), s.get(LedgerService), s.get(FeeListeners), s.get(PaperAccounts), { id: ownerId });
}

/**
 * A live venue_b market order of `size` YES contracts as its runner leaves it when its process dies
 * after asking the venue: opened (a buy holds `hold` USD; a sell holds its size of the position),
 * `submitted`, and last touched a minute ago. Its id is the client order id the venue got.
 */
async function stranded(
  userId: string,
  o: { side: 'buy' | 'sell'; size: number; hold?: number; positionId?: string; ownerId?: string },
): Promise<OrderDraft> {
  const market = await lookUpMarket(
    { markets: app.services.get(MarketsService), events: app.services.get(EventsService) },
    { marketId: `venue_b:${marketB}` } as Parameters<typeof lookUpMarket>[1],
  );
  const d: OrderDraft = {
    id: randomUUID(),
    userId,
    venue: 'venue_b',
    marketKey: market.id,
    venueMarketId: market.marketId,
    coreEventId: market.eventId,
    outcome: 'yes',
    side: o.side,
    orderType: 'market',
    mode: 'live',
    limitPriceMicros: null,
    requestedSizeMicros: micros(o.size),
    source: o.positionId ? 'position_sell' : 'execute',
    positionId: o.positionId ?? null,
    idempotencyKey: null,
  };
  const recorder = recorderOf(o.ownerId ?? GONE);
  await recorder.open(d, micros(o.hold ?? 0));
  await recorder.submitted(d.id, null);
  await prisma().order.update({ where: { id: d.id }, data: { updatedAt: new Date(Date.now() - 60_000) } });
  return d;
}

/** What the venue holds for an order it took: its status and fills (YES cents), in Kalshi's shapes. */
function atVenue(d: OrderDraft, status: string, fills: { cents: number; count: number }[]): string {
  const venueOrderId = randomUUID();
  const filled = fills.reduce((s, f) => s + f.count, 0);
  const cost = fills.reduce((s, f) => s + f.cents * f.count, 0);
  const created = new Date(Date.now() - 50_000);
  fake.data.venueB.orders[venueOrderId] = {
    order_id: venueOrderId,
    user_id: 'fake-user',
    client_order_id: d.id,
    ticker: marketB,
    side: 'yes',
    action: d.side,
    type: 'market',
    status,
    fill_count: filled,
    fill_count_fp: filled.toFixed(2),
    remaining_count: Number(d.requestedSizeMicros / 1_000_000n) - filled,
    initial_count: Number(d.requestedSizeMicros / 1_000_000n),
    taker_fill_cost: cost,
    taker_fill_cost_dollars: (cost / 100).toFixed(4),
    created_time: created.toISOString(),
    last_update_time: created.toISOString(),
  };
  fills.forEach((f, i) => {
    const at = new Date(created.getTime() + i * 1000);
    fake.data.venueB.fills.unshift({
      fill_id: randomUUID(),
      order_id: venueOrderId,
      client_order_id: d.id,
      ticker: marketB,
      side: 'yes',
      action: d.side,
      count: f.count,
      count_fp: f.count.toFixed(2),
      yes_price: f.cents,
      no_price: 100 - f.cents,
      yes_price_fixed: (f.cents / 100).toFixed(4),
      no_price_fixed: ((100 - f.cents) / 100).toFixed(4),
      is_taker: true,
      created_time: at.toISOString(),
      ts: Math.floor(at.getTime() / 1000),
    });
  });
  return venueOrderId;
}

describe('reconciling live venue_b orders whose process died', () => {
  it('executed at the venue: settled with its fills, the position opened and the hold released, once', async () => {
    await fund(app, 'rita', 20);
    const d = await stranded('rita', { side: 'buy', size: 3, hold: 3.1 });
    expect(await ledger().balance('rita')).toMatchObject({ available: micros(16.9), held: micros(3.1) });
    const venueOrderId = atVenue(d, 'executed', [
      { cents: 55, count: 2 },
      { cents: 56, count: 1 },
    ]);

    expect(await reconcile()).toBe(1);
    const { order, fills, entries } = await orderRows(app, d.id);
    expect(order).toMatchObject({ state: 'filled', externalOrderId: venueOrderId, filledSizeMicros: micros(3) });
    // The venue's fills, each with its own fee: ceil to the cent of 0.07 × n × p × (1 − p).
    expect(fills.map((f) => [f.priceMicros, f.sizeMicros, f.feeMicros])).toEqual([
      [micros(0.55), micros(2), micros(0.04)],
      [micros(0.56), micros(1), micros(0.02)],
    ]);
    expect(entries.map((e) => e.kind)).toEqual([
      'order_hold',
      'order_release',
      'trade_buy',
      'trading_fee',
      'trading_fee',
    ]);
    expect(await ledger().balance('rita')).toMatchObject({ available: micros(20 - 1.66 - 0.06), held: 0n });
    const position = await prisma().position.findUniqueOrThrow({ where: { id: order!.positionId! } });
    expect(position).toMatchObject({ status: 'open', sizeMicros: micros(3), mode: 'live' });
    expect(await positionMatchesFills(app, position.id)).toEqual({ size: micros(3), fromFills: micros(3) });
    // The lookups were signed (the venue refuses others) and spent on the order budget.
    expect(fake.requestsTo('kalshi', '/portfolio/orders').some((r) => r.method === 'GET')).toBe(true);
    expect(await reconcile()).toBe(0);
    expect((await orderRows(app, d.id)).entries).toHaveLength(5);
    expect(await ledger().audit()).toEqual([]);
  });

  it('partly filled before the venue cancelled the rest: partially_filled with those fills', async () => {
    await fund(app, 'pete', 20);
    const d = await stranded('pete', { side: 'buy', size: 5, hold: 5.2 });
    atVenue(d, 'canceled', [{ cents: 55, count: 2 }]);
    expect(await reconcile()).toBe(1);
    const { order, fills } = await orderRows(app, d.id);
    expect(order).toMatchObject({
      state: 'partially_filled',
      filledSizeMicros: micros(2),
      requestedSizeMicros: micros(5),
    });
    expect(fills.map((f) => [f.priceMicros, f.sizeMicros])).toEqual([[micros(0.55), micros(2)]]);
    expect(await ledger().balance('pete')).toMatchObject({ available: micros(20 - 1.1 - 0.04), held: 0n });
    expect(await ledger().audit()).toEqual([]);
  });

  it('never placed (unknown to the venue): failed, the hold released and the pending position undone', async () => {
    await fund(app, 'nina', 20);
    const d = await stranded('nina', { side: 'buy', size: 2, hold: 2.1 });
    expect(await prisma().position.count({ where: { userId: 'nina', status: 'pending' } })).toBe(1);
    expect(await reconcile()).toBe(1);
    const { order, entries } = await orderRows(app, d.id);
    expect(order).toMatchObject({ state: 'failed', externalOrderId: null });
    expect(order!.failureReason).toMatch(/never reached venue_b/);
    expect(entries.map((e) => e.kind)).toEqual(['order_hold', 'order_release']);
    expect(await ledger().balance('nina')).toMatchObject({ available: micros(20), held: 0n });
    expect(await prisma().position.count({ where: { userId: 'nina' } })).toBe(0);
  });

  it('cancelled by the venue without a fill: cancelled, the hold released', async () => {
    await fund(app, 'carl', 20);
    const d = await stranded('carl', { side: 'buy', size: 2, hold: 2.1 });
    atVenue(d, 'canceled', []);
    expect(await reconcile()).toBe(1);
    const { order } = await orderRows(app, d.id);
    expect(order).toMatchObject({ state: 'cancelled', failureReason: 'venue_b canceled the order without a fill' });
    expect(await ledger().balance('carl')).toMatchObject({ available: micros(20), held: 0n });
  });

  it('a stranded sell ends with its hold of the position: sold at the venue, or free again', async () => {
    await fund(app, 'sara', 20);
    const buy = await stranded('sara', { side: 'buy', size: 4, hold: 4.2 });
    atVenue(buy, 'executed', [{ cents: 55, count: 4 }]);
    await reconcile();
    const positionId = (await orderRows(app, buy.id)).order!.positionId!;
    const sold = await stranded('sara', { side: 'sell', size: 3, positionId });
    const lost = await stranded('sara', { side: 'sell', size: 1, positionId });
    // Both sells hold the whole position: a third is refused until they end.
    const refused = await app.services
      .get(ExecutionService)
      .run(
        { mode: 'live', marketId: `venue_b:${marketB}`, side: 'sell', outcome: 'yes', size: 1 },
        { userId: 'sara', live: true },
      )
      .then(
        () => null,
        (err: Error) => err.message,
      );
    expect(refused).toMatch(/0 yes contracts free to sell/);
    atVenue(sold, 'executed', [{ cents: 53, count: 3 }]);
    expect(await reconcile()).toBe(2);
    expect((await orderRows(app, sold.id)).order).toMatchObject({ state: 'filled', filledSizeMicros: micros(3) });
    expect((await orderRows(app, lost.id)).order).toMatchObject({ state: 'failed' });
    const position = await prisma().position.findUniqueOrThrow({ where: { id: positionId } });
    expect(position.sizeMicros).toBe(micros(1));
    expect(await positionMatchesFills(app, positionId)).toEqual({ size: micros(1), fromFills: micros(1) });
    // Nothing holds the last contract any more.
    expect(await prisma().order.count({ where: { positionId, state: { in: ['pending', 'submitted'] } } })).toBe(0);
    expect(await ledger().audit()).toEqual([]);
  });

  it('left alone while its process lives and while the venue may still fill it; ended once neither holds', async () => {
    await fund(app, 'lena', 20);
    const owner = new ProcessOwner(prisma(), { heartbeatMs: 60_000, leaseMs: 600_000, embedded: false });
    await owner.start();
    const d = await stranded('lena', { side: 'buy', size: 2, hold: 2.1, ownerId: owner.id });
    expect(await reconcile()).toBe(0);
    expect((await orderRows(app, d.id)).order).toMatchObject({ state: 'submitted' });
    // Its process is gone now, but the venue still works the order: asked again next time.
    await owner.stop();
    const venueOrderId = atVenue(d, 'resting', []);
    expect(await reconcile()).toBe(0);
    expect((await orderRows(app, d.id)).order).toMatchObject({ state: 'submitted' });
    fake.data.venueB.orders[venueOrderId].status = 'canceled';
    expect(await reconcile()).toBe(1);
    expect((await orderRows(app, d.id)).order).toMatchObject({ state: 'cancelled', externalOrderId: venueOrderId });
    expect(await ledger().balance('lena')).toMatchObject({ available: micros(20), held: 0n });
  });

  it('a venue that cannot be asked leaves the order for the next run', async () => {
    await fund(app, 'vick', 20);
    const d = await stranded('vick', { side: 'buy', size: 1, hold: 1.1 });
    fake.fault({ api: 'kalshi', method: 'GET', path: '/portfolio/orders' }, { kind: 'status', status: 401 });
    expect(await reconcile()).toBe(0);
    expect((await orderRows(app, d.id)).order).toMatchObject({ state: 'submitted' });
    expect(await reconcile()).toBe(1);
    expect((await orderRows(app, d.id)).order).toMatchObject({ state: 'failed' });
  });
});

describe('live venue_b orders on the simulated venue_b', () => {
  let sim: TestApp;
  beforeAll(async () => {
    sim = await startTestApp({ EXECUTION_RECONCILE_MS: '0', EXECUTION_STALE_ORDER_MS: '1000' }, {}, pinnedWorld());
  });
  afterAll(() => sim.close());

  it('one left open (placed before live orders there went to the paper account) fails, hold released', async () => {
    await fund(sim, 'olga', 20);
    const s = sim.services;
    const recorder = new TradeRecorder(s.db.prisma, s.get(LedgerService), s.get(FeeListeners), s.get(PaperAccounts), {
      id: GONE,
    });
    const market = await lookUpMarket({ markets: s.get(MarketsService), events: s.get(EventsService) }, {
      marketId: `venue_b:${marketB}`,
    } as Parameters<typeof lookUpMarket>[1]);
    const id = randomUUID();
    await recorder.open(
      {
        id,
        userId: 'olga',
        venue: 'venue_b',
        marketKey: market.id,
        venueMarketId: market.marketId,
        coreEventId: market.eventId,
        outcome: 'yes',
        side: 'buy',
        orderType: 'market',
        mode: 'live',
        limitPriceMicros: null,
        requestedSizeMicros: micros(2),
        source: 'execute',
        positionId: null,
        idempotencyKey: null,
      },
      micros(2.1),
    );
    await s.db.prisma.order.update({ where: { id }, data: { updatedAt: new Date(Date.now() - 60_000) } });
    expect(await s.get(ExecutionService).reconcile()).toBe(1);
    const order = await s.db.prisma.order.findUniqueOrThrow({ where: { id } });
    expect(order.state).toBe('failed');
    expect(order.failureReason).toMatch(/venue_b is simulated here/);
    expect(await s.get(LedgerService).balance('olga')).toMatchObject({ available: micros(20), held: 0n });
  });
});
