import { ExecutionService } from '../../../src/modules/execution/execution.service';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { startTestApp, type BearerHeader, type TestApp } from '../../support/app';
import { lastData, names, postStream } from '../../support/execution-stream';
import type { FakeVenues } from '../../support/fake-venues';
import { fund } from '../../support/funding';
import { micros } from '../../support/money';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { positionMatchesFills, startLiveVenueB } from './trading-helpers';

/**
 * A sell holds its size of the position from the transaction that opens its
 * order (before the venue is asked) until the order ends: concurrent or later
 * sells get only what is free. The venue here is a live venue_b (a local
 * server) whose order answers the tests hold back until they release them.
 */
const pinned = pinnedWorld();
const marketB = activeMatchedEvent(pinned.world).markets[0].venueMarketIds.venue_b!;
let fake: FakeVenues;
let app: TestApp;
beforeAll(async () => {
  const venue = await startLiveVenueB([marketB]);
  fake = venue.fake;
  app = await startTestApp(venue.env, {}, pinned);
});
afterAll(async () => {
  await app.close();
  await fake.close();
});
afterEach(() => fake.clearFaults());

const prisma = () => app.services.db.prisma;
const ordersAtVenue = () => fake.requestsTo('kalshi', '/portfolio/orders').length;

/** Holds back the venue's answers to order requests until the returned function is called. */
function holdOrders(): () => void {
  let release!: () => void;
  const until = new Promise<void>((resolve) => (release = resolve));
  fake.fault({ api: 'kalshi', method: 'POST', path: '/portfolio/orders' }, { kind: 'hold', until }, Infinity);
  return () => {
    fake.clearFaults();
    release();
  };
}

/** Buys `size` YES contracts live for a funded `user`; the position's id. */
async function buy(user: string, size: number): Promise<string> {
  await fund(app, user, 100);
  const r = await postStream(
    `${app.url}/execute`,
    { mode: 'live', marketId: `venue_b:${marketB}`, side: 'buy', outcome: 'yes', size },
    await app.walletBearer(user),
  );
  expect({ status: r.status, body: r.body, last: names(r).at(-1) }).toMatchObject({ status: 200, last: 'completed' });
  return lastData(r).position!.id;
}

/** Starts a position sell: its status as soon as the answer starts, and its whole body when it ends. */
async function startSell(positionId: string, body: object, headers: BearerHeader) {
  const res = await fetch(`${app.url}/api/positions/${positionId}/sell`, {
    method: 'POST',
    headers: { accept: 'text/event-stream', 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: res.text() };
}

const sell = async (user: string, positionId: string, body: object = {}) =>
  postStream(`${app.url}/api/positions/${positionId}/sell`, body, await app.walletBearer(user));

const heldMessage = (positionId: string, free: number, held: number, size: number) =>
  `position ${positionId} has ${free} yes contracts free to sell: ${held} of its ${size} are held by open sell ` +
  'orders until they end';

describe('concurrent sells of one live position', () => {
  it('ten sells of a one-contract position at once: one order reaches the venue, nine are refused', async () => {
    const positionId = await buy('racer', 1);
    const headers = await app.walletBearer('racer');
    const release = holdOrders();
    const before = ordersAtVenue();
    // Every answer starts (the refusals whole, the accepted sell's stream open) before the venue answers.
    const sells = await Promise.all(Array.from({ length: 10 }, () => startSell(positionId, {}, headers)));
    release();
    const bodies = await Promise.all(sells.map((s) => s.body));

    expect(ordersAtVenue() - before).toBe(1);
    const accepted = sells.flatMap((s, i) => (s.status === 200 ? [bodies[i]] : []));
    expect(accepted).toHaveLength(1);
    expect(accepted[0]).toMatch(/event: completed\n/);
    const refused = sells.flatMap((s, i) => (s.status === 200 ? [] : [{ status: s.status, body: bodies[i] }]));
    expect(refused).toHaveLength(9);
    for (const r of refused) {
      expect(r.status).toBe(400);
      const body = JSON.parse(r.body) as { error: string; message: string };
      expect(body.error).toBe('bad_request');
      expect(body.message).toMatch(/^(size|positionId): /);
      expect(body.message).toContain(heldMessage(positionId, 0, 1, 1));
    }

    // A refusal writes nothing; the one sell settled; the ledger and the position agree.
    const orders = await prisma().order.findMany({ where: { userId: 'racer' }, orderBy: { createdAt: 'asc' } });
    expect(orders.map((o) => [o.side, o.state])).toEqual([
      ['buy', 'filled'],
      ['sell', 'filled'],
    ]);
    const position = await prisma().position.findUniqueOrThrow({ where: { id: positionId } });
    expect(position).toMatchObject({ status: 'closed', sizeMicros: 0n });
    const { size, fromFills } = await positionMatchesFills(app, positionId);
    expect(size).toBe(fromFills);
    const [b, s] = orders;
    expect(await app.services.get(LedgerService).balance('racer')).toMatchObject({
      available: micros(100) - b.notionalMicros - b.feeMicros + s.notionalMicros - s.feeMicros,
      held: 0n,
    });
    expect(await app.services.get(LedgerService).audit()).toEqual([]);
  });
});

describe('a sell on its way to the venue', () => {
  it('holds its size: later sells get what is free, and the hold ends with the order', async () => {
    const positionId = await buy('holder', 5);
    const release = holdOrders();
    const first = await startSell(positionId, { size: 3 }, await app.walletBearer('holder'));
    expect(first.status).toBe(200);

    const again = await sell('holder', positionId, { size: 3 });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'bad_request', message: `size: ${heldMessage(positionId, 2, 3, 5)}` });
    const viaExecute = await postStream(
      `${app.url}/execute`,
      { mode: 'live', marketId: `venue_b:${marketB}`, side: 'sell', outcome: 'yes', size: 3 },
      await app.walletBearer('holder'),
    );
    expect(viaExecute.status).toBe(400);
    expect(viaExecute.body?.message).toBe(`size: ${heldMessage(positionId, 2, 3, 5)}`);

    release();
    expect(await first.body).toMatch(/event: completed\n/);
    // No size: all that is free (the hold ended with the first order).
    const rest = await sell('holder', positionId);
    expect(lastData(rest).order).toMatchObject({ state: 'filled', filledSize: 2 });
    expect(lastData(rest).position).toMatchObject({ status: 'closed', size: 0 });
    const sells = await prisma().order.findMany({ where: { userId: 'holder', side: 'sell' } });
    expect(sells.map((o) => o.state)).toEqual(['filled', 'filled']);
  });

  it('that the venue refuses, or never answers, frees its size when the order ends', async () => {
    const positionId = await buy('freed', 2);
    fake.fault(
      { api: 'kalshi', method: 'POST', path: '/portfolio/orders' },
      { kind: 'status', status: 400, body: { error: { code: 'invalid_parameters', message: 'refused' } } },
    );
    const refused = await sell('freed', positionId);
    expect(names(refused).at(-1)).toBe('failed');

    fake.fault({ api: 'kalshi', method: 'POST', path: '/portfolio/orders' }, { kind: 'hang' });
    const unanswered = await sell('freed', positionId);
    // The venue may have taken it: its size stays held until the reconciler learns it never did.
    expect(names(unanswered).at(-1)).toBe('outcome_unknown');
    expect(lastData(unanswered).order).toMatchObject({ state: 'submitted' });
    expect((await sell('freed', positionId)).body?.message).toBe(`positionId: ${heldMessage(positionId, 0, 2, 2)}`);
    const unansweredId = lastData(unanswered).orderId;
    // As if EXECUTION_STALE_ORDER_MS had passed: the reconciler asks the venue, which has no such order.
    await prisma().order.update({ where: { id: unansweredId }, data: { updatedAt: new Date(Date.now() - 120_000) } });
    await app.services.get(ExecutionService).reconcile();
    expect(await prisma().order.findUniqueOrThrow({ where: { id: unansweredId } })).toMatchObject({ state: 'failed' });

    const sold = await sell('freed', positionId);
    expect(lastData(sold).order).toMatchObject({ state: 'filled', filledSize: 2 });
    const states = (await prisma().order.findMany({ where: { userId: 'freed', side: 'sell' } })).map((o) => o.state);
    expect(states.filter((s) => s === 'pending' || s === 'submitted')).toEqual([]);
  });
});
