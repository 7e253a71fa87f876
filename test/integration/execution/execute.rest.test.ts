import { createClient } from 'graphql-sse';
import { mulMicros } from '../../../src/money';
import { applyFills, EMPTY_POSITION } from '../../../src/modules/portfolio/position.math';
import { http, startTestApp, type TestApp } from '../../support/app';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { openSse } from '../../support/sse';
import { lastData, names, postStream } from '../../support/execution-stream';
import { fund, setPaperBalance } from '../../support/funding';
import { micros, usd } from '../../support/money';
import { orderRows, positionMatchesFills } from './trading-helpers';
import { ExecutionService } from '../../../src/modules/execution/execution.service';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { PAPER_CURRENCY } from '../../../src/modules/ledger/ledger.models';
import { PaperAccounts } from '../../../src/modules/paper/paper.service';

let app: TestApp;
const pinned = pinnedWorld();
const event = activeMatchedEvent(pinned.world);
const marketA = event.markets[0].venueMarketIds.venue_a!;
const marketB = event.markets[0].venueMarketIds.venue_b!;
beforeAll(async () => {
  app = await startTestApp({}, {}, pinned);
});
afterAll(async () => {
  await app.close();
});

const prisma = () => app.services.db.prisma;
const execute = async (json: unknown, headers: Record<string, string> = {}) =>
  postStream(`${app.url}/execute`, json, headers);
const sellPosition = (id: string, json: unknown, headers: Record<string, string>) =>
  postStream(`${app.url}/api/positions/${id}/sell`, json, headers);
/**
 * venue_b's taker fee for one fill, by hand: ceil to the cent of 0.07 × C × p × (1 − p) (whole contracts, cent
 * prices).
 */
const venueBFee = (contracts: number, price: number) => {
  const cents = Math.round(price * 100);
  return Math.ceil((7 * contracts * cents * (100 - cents)) / 10_000) / 100;
};

describe('POST /execute: the stream', () => {
  it(
    'streams accepted, quote, submitted, fill…, completed with `id: <orderId>:<seq>`; an anonymous simulation ' +
      'stores nothing',
    async () => {
      const r = await execute({ marketId: marketB, side: 'buy', outcome: 'yes', size: 40 });
      expect(r.status).toBe(200);
      expect(r.contentType).toMatch(/^text\/event-stream/);
      const kinds = names(r);
      expect(kinds.slice(0, 3)).toEqual(['accepted', 'quote', 'submitted']);
      expect(kinds[kinds.length - 1]).toBe('completed');
      expect(kinds.slice(3, -1).every((k) => k === 'fill')).toBe(true);
      const orderId = r.events[0].data.orderId;
      r.events.forEach((e, i) => {
        expect(e.id).toBe(`${orderId}:${i + 1}`);
        expect(e.data).toMatchObject({ id: e.id, event: e.event, seq: i + 1, orderId, replayed: false });
      });
      const fills = r.events.filter((e) => e.event === 'fill').map((e) => e.data.fill!);
      expect(fills.reduce((s, f) => s + f.size, 0)).toBe(40);
      for (const f of fills) expect(f.fee).toBe(venueBFee(f.size, f.price));
      expect(lastData(r).order).toMatchObject({ state: 'filled', filledSize: 40, persisted: false });
      expect(r.events[1].data.quote).toMatchObject({ contracts: 40, complete: true, venue: 'venue_b' });
      expect(await prisma().order.count({ where: { id: orderId } })).toBe(0);
    },
  );

  it('is the GraphQL `execute` subscription (graphql-sse)', async () => {
    const client = createClient({ url: `${app.url}/graphql/stream`, retryAttempts: 0 });
    const seen: string[] = [];
    await new Promise<void>((resolve, reject) => {
      client.subscribe(
        {
          query: 'subscription($i: ExecuteInput!) { execute(input: $i) { event seq order { state } } }',
          variables: { i: { marketId: marketA, side: 'buy', outcome: 'no', size: 3 } },
        },
        {
          next: (m) => void seen.push((m.data as { execute: { event: string } }).execute.event),
          error: reject,
          complete: resolve,
        },
      );
    });
    client.dispose();
    expect(seen[0]).toBe('accepted');
    expect(seen[seen.length - 1]).toBe('completed');
  });

  it.each([
    [{}, /^marketId: is required/],
    [{ marketId: marketB, outcome: 'yes', size: 1 }, /^side: is required/],
    [{ marketId: marketB, side: 'hold', outcome: 'yes', size: 1 }, /^side: /],
    [{ marketId: marketB, side: 'buy', outcome: 'yes', size: -1 }, /^size: /],
    [{ marketId: marketB, side: 'buy', outcome: 'yes', size: '5' }, /^size: must be a number/],
    [{ marketId: marketB, side: 'buy', outcome: 'yes', size: 1, limitPrice: 1.5 }, /^limitPrice: /],
    [
      { marketId: marketB, side: 'buy', outcome: 'yes', size: 1, orderType: 'limit' },
      /^limitPrice: is required for a limit order/,
    ],
    [{ marketId: marketB, side: 'buy', outcome: 'yes', size: 1, mode: 'paper' }, /^mode: /],
    [
      { marketId: marketB, side: 'buy', outcome: 'yes', size: 1, fundingSourceChain: 'bitcoin' },
      /^fundingSourceChain: /,
    ],
    [{ marketId: 'no-such-market', side: 'buy', outcome: 'yes', size: 1 }, /^marketId: no market/],
    [{ marketId: marketB, side: 'buy', outcome: 'yes', size: 1.5 }, /^size: venue_b trades whole contracts only/],
    [{ marketId: marketA, side: 'buy', outcome: 'yes', size: 1.005 }, /^size: venue_a takes at most 2 decimals/],
    [{ marketId: marketB, venue: 'venue_a', side: 'buy', outcome: 'yes', size: 1 }, /^marketId: no market/],
    [{ marketId: marketB, coreId: 'evt_other', side: 'buy', outcome: 'yes', size: 1 }, /^coreId: /],
  ])('400 naming the field before any stream opens: %j', async (json, expected) => {
    const r = await execute(json);
    expect(r.status).toBe(400);
    expect(r.contentType).toMatch(/^application\/json/);
    expect(r.body).toMatchObject({ error: 'bad_request' });
    expect(r.body!.message).toMatch(expected);
  });

  it('401: a bad bearer; live without the wallet-auth token or with a user token', async () => {
    const order = { marketId: marketB, side: 'buy', outcome: 'yes', size: 1 };
    expect((await execute(order, { authorization: 'Bearer nope' })).status).toBe(401);
    expect((await execute({ ...order, mode: 'live' })).status).toBe(401);
    const userToken = await execute({ ...order, mode: 'live' }, await app.bearer('walletless'));
    expect(userToken.status).toBe(401);
    expect(userToken.body).toMatchObject({ error: 'unauthorized' });
  });

  it('400 before 401: a bad body is refused before its credentials are looked at (/execute, GraphQL)', async () => {
    const order = { marketId: marketB, side: 'buy', outcome: 'yes', size: 1, mode: 'live' };
    const mixed = { ...order, orderType: 'market', limitPrice: 0.5 };
    for (const headers of [{}, { authorization: 'Bearer nope' }, await app.bearer('walletless')]) {
      for (const [body, field] of [
        [mixed, /^limitPrice: /],
        [{ ...order, size: -1 }, /^size: /],
      ] as const) {
        const r = await execute(body, headers);
        expect([r.status, r.body!.message]).toEqual([400, expect.stringMatching(field)]);
      }
    }
    // Over GraphQL without a token: the live order, and the position sell (REST's route asks for the bearer first).
    const refusals = await Promise.all(
      [
        { query: 'subscription($i: ExecuteInput!) { execute(input: $i) { event } }', variables: { i: mixed } },
        {
          query: 'subscription($i: SellPositionInput) { sellPosition(positionId: "p-1", input: $i) { event } }',
          variables: { i: { orderType: 'market', limitPrice: 0.1, mode: 'live' } },
        },
      ].map(async (operation) => {
        const client = createClient({ url: `${app.url}/graphql/stream`, retryAttempts: 0 });
        const results: unknown[] = [];
        await new Promise<void>((resolve) => {
          client.subscribe(operation, {
            next: (m) => void results.push(m),
            error: (e) => (results.push(e), resolve()),
            complete: resolve,
          });
        });
        client.dispose();
        return JSON.stringify(results);
      }),
    );
    for (const text of refusals) expect(text).toMatch(/limitPrice: is not allowed with orderType market/);
  });

  it('503 before streaming: venue_a live with no execution service configured', async () => {
    await fund(app, 'live-a', 50);
    const r = await execute(
      { marketId: marketA, side: 'buy', outcome: 'yes', size: 1, mode: 'live' },
      await app.walletBearer('live-a'),
    );
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ error: 'unavailable' });
    expect(await prisma().order.count({ where: { userId: 'live-a' } })).toBe(0);
  });

  it('size 0 is accepted and fails at once with nothing to execute; a limit below the book is cancelled', async () => {
    const zero = await execute({ marketId: marketB, side: 'buy', outcome: 'yes', size: 0 });
    expect(names(zero)).toEqual(['accepted', 'failed']);
    expect(lastData(zero).error).toMatchObject({ code: 'nothing_to_execute' });
    const low = await execute({ marketId: marketB, side: 'buy', outcome: 'yes', size: 5, limitPrice: 0.01 });
    expect(names(low)).toEqual(['accepted', 'quote', 'completed']);
    expect(lastData(low).order).toMatchObject({
      state: 'cancelled',
      filledSize: 0,
      failureReason: 'nothing fillable within the limit price',
    });
  });
});

describe('POST /execute: an authenticated simulation', () => {
  it('writes the order, fills, position, fees and balance movements together, and notifies', async () => {
    await fund(app, 'buyer', 100);
    const r = await execute({ marketId: marketB, side: 'buy', outcome: 'yes', size: 12 }, await app.bearer('buyer'));
    expect(lastData(r).event).toBe('completed');
    const orderId = lastData(r).orderId;
    const { order, fills, entries } = await orderRows(app, orderId);
    expect(order).toMatchObject({
      userId: 'buyer',
      state: 'filled',
      mode: 'simulation',
      source: 'execute',
      filledSizeMicros: micros(12),
    });
    // The fills streamed are the fills stored.
    const streamed = r.events.filter((e) => e.event === 'fill').map((e) => e.data.fill!);
    expect(fills.map((f) => [f.seq, f.priceMicros, f.sizeMicros, f.feeMicros])).toEqual(
      streamed.map((f) => [f.seq, micros(f.price), micros(f.size), micros(f.fee)]),
    );
    const notional = fills.reduce((s, f) => s + mulMicros(f.priceMicros, f.sizeMicros), 0n);
    const fees = fills.reduce((s, f) => s + f.feeMicros, 0n);
    expect([order!.notionalMicros, order!.feeMicros]).toEqual([notional, fees]);
    // One notional movement, then one movement per fee with the documented key.
    expect(entries.map((e) => [e.kind, e.availableDelta, e.idempotencyKey])).toEqual([
      ['trade_buy', -notional, `trade:${orderId}`],
      ...fills.map((f) => ['trading_fee', -f.feeMicros, `fee:${orderId}:${f.seq}`]),
    ]);
    // In the paper account (10,000 paper dollars to start); the USD deposit is untouched.
    expect(entries.every((e) => e.currency === PAPER_CURRENCY)).toBe(true);
    const balance = await app.services.get(PaperAccounts).balance('buyer');
    expect(balance.available).toBe(micros(10_000) - notional - fees);
    expect(lastData(r).balance).toEqual({ available: usd(balance.available), held: 0 });
    expect((await app.services.get(LedgerService).balance('buyer')).available).toBe(micros(100));
    const position = await prisma().position.findUniqueOrThrow({ where: { id: order!.positionId! } });
    expect(position).toMatchObject({
      status: 'open',
      sizeMicros: micros(12),
      costBasisMicros: notional,
      realizedPnlMicros: -fees,
      feesMicros: fees,
      marketId: `venue_b:${marketB}`,
    });
    expect(await app.services.get(LedgerService).audit()).toEqual([]);
    const note = await prisma().notification.findFirst({ where: { userId: 'buyer', kind: 'order_fill' } });
    expect(note?.data).toMatchObject({ orderId, state: 'filled' });
  });

  it(
    'sells from the position: a partial sell realizes PnL, a bare sell closes it, then nothing is left to ' + 'sell',
    async () => {
      await fund(app, 'trader', 100);
      const bought = await execute(
        { marketId: marketA, side: 'buy', outcome: 'no', size: 10 },
        await app.bearer('trader'),
      );
      const positionId = lastData(bought).position!.id;
      const partial = await sellPosition(positionId, { size: 4 }, await app.bearer('trader'));
      expect(lastData(partial).event).toBe('completed');
      expect(lastData(partial).order).toMatchObject({
        side: 'sell',
        outcome: 'no',
        source: 'position_sell',
        positionId,
        filledSize: 4,
      });
      expect(lastData(partial).position).toMatchObject({ id: positionId, status: 'open', size: 6 });
      const closed = await sellPosition(positionId, undefined, await app.bearer('trader'));
      expect(lastData(closed).position).toMatchObject({ status: 'closed', size: 0, costBasis: 0, avgPrice: null });
      // The position equals its fills, replayed through the position math.
      const orders = await prisma().order.findMany({
        where: { positionId },
        include: { fills: { orderBy: { seq: 'asc' } } },
        orderBy: { createdAt: 'asc' },
      });
      const replayed = applyFills(
        EMPTY_POSITION,
        orders.flatMap((o) =>
          o.fills.map((f) => ({
            side: o.side,
            size: f.sizeMicros,
            notional: mulMicros(f.priceMicros, f.sizeMicros),
            fee: f.feeMicros,
          })),
        ),
      );
      const row = await prisma().position.findUniqueOrThrow({ where: { id: positionId } });
      expect([row.sizeMicros, row.costBasisMicros, row.realizedPnlMicros, row.feesMicros]).toEqual([
        replayed.size,
        replayed.costBasis,
        replayed.realizedPnl,
        replayed.fees,
      ]);
      expect(row.closedAt).not.toBeNull();
      // Cash: the deposit, minus what the buy cost, plus what the sells brought: realized PnL exactly.
      expect((await app.services.get(PaperAccounts).balance('trader')).available).toBe(
        micros(10_000) + row.realizedPnlMicros,
      );
      const again = await sellPosition(positionId, {}, await app.bearer('trader'));
      expect(again.status).toBe(400);
      expect(again.body!.message).toMatch(/^positionId: the position is closed/);
    },
  );

  it('position sell: 401 without a token, 404 unknown or not yours, 400 above the position or a bad body', async () => {
    await fund(app, 'owner', 50);
    const bought = await execute(
      { marketId: marketB, side: 'buy', outcome: 'yes', size: 3 },
      await app.bearer('owner'),
    );
    const id = lastData(bought).position!.id;
    expect((await sellPosition(id, {}, {})).status).toBe(401);
    expect((await sellPosition('00000000-0000-0000-0000-000000000000', {}, await app.bearer('owner'))).status).toBe(
      404,
    );
    expect((await sellPosition(id, {}, await app.bearer('someone-else'))).status).toBe(404);
    const tooMuch = await sellPosition(id, { size: 4 }, await app.bearer('owner'));
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body!.message).toMatch(/^size: exceeds the position's 3 contracts/);
    expect((await sellPosition(id, { limitPrice: 2 }, await app.bearer('owner'))).status).toBe(400);
    expect((await sellPosition(id, { size: 1.5 }, await app.bearer('owner'))).body!.message).toMatch(
      /^size: venue_b trades whole contracts/,
    );
  });

  it(
    'refuses a buy the balance cannot pay: failed with the reason, the order rejected, nothing else ' + 'written',
    async () => {
      await fund(app, 'poor', 1_000);
      await setPaperBalance(app, 'poor', 1);
      const r = await execute({ marketId: marketB, side: 'buy', outcome: 'yes', size: 50 }, await app.bearer('poor'));
      expect(names(r)).toEqual(['accepted', 'quote', 'failed']);
      expect(lastData(r).error).toMatchObject({ code: 'insufficient_funds' });
      expect(lastData(r).error!.message).toMatch(
        /^insufficient balance: the order costs \$\d+\.\d\d .* \$1\.00 available$/,
      );
      const { order, fills, entries } = await orderRows(app, lastData(r).orderId);
      expect(order).toMatchObject({ state: 'rejected', filledSizeMicros: 0n });
      expect([fills, entries]).toEqual([[], []]);
      expect(await prisma().position.count({ where: { userId: 'poor' } })).toBe(0);
      expect((await app.services.get(PaperAccounts).balance('poor')).available).toBe(micros(1));
      expect((await app.services.get(LedgerService).balance('poor')).available).toBe(micros(1_000));
    },
  );

  it('400 naming limitPrice: orderType market with a limitPrice (/execute, position sell, GraphQL)', async () => {
    const exec = await execute(
      { marketId: marketB, side: 'buy', outcome: 'yes', size: 1, orderType: 'market', limitPrice: 0.5 },
      await app.bearer('mixer'),
    );
    expect(exec.status).toBe(400);
    expect(exec.body).toMatchObject({ error: 'bad_request' });
    expect(exec.body!.message).toMatch(/^limitPrice: is not allowed with orderType market/);
    expect(await prisma().order.count({ where: { userId: 'mixer' } })).toBe(0);
    await fund(app, 'mixer', 20);
    const bought = await execute(
      { marketId: marketB, side: 'buy', outcome: 'yes', size: 2 },
      await app.bearer('mixer'),
    );
    const sell = await sellPosition(
      lastData(bought).position!.id,
      { orderType: 'market', limitPrice: 0.1 },
      await app.bearer('mixer'),
    );
    expect(sell.status).toBe(400);
    expect(sell.body!.message).toMatch(/^limitPrice: is not allowed with orderType market/);
    const client = createClient({ url: `${app.url}/graphql/stream`, retryAttempts: 0 });
    const results: unknown[] = [];
    await new Promise<void>((resolve) => {
      client.subscribe(
        {
          query: 'subscription($i: ExecuteInput!) { execute(input: $i) { event } }',
          variables: {
            i: { marketId: marketB, side: 'buy', outcome: 'yes', size: 1, orderType: 'market', limitPrice: 0.5 },
          },
        },
        { next: (m) => void results.push(m), error: (e) => (results.push(e), resolve()), complete: resolve },
      );
    });
    client.dispose();
    const text = JSON.stringify(results);
    expect(text).toMatch(/limitPrice: is not allowed with orderType market/);
    expect(text).toMatch(/BAD_REQUEST|bad_request/);
  });

  it('text PostgreSQL cannot store is refused before the order, over GraphQL as over REST', async () => {
    const input = { marketId: marketB, side: 'buy', outcome: 'yes', size: 1, eventTitle: 'nul\u0000here' };
    const before = await prisma().order.count();
    const rest = await execute(input, await app.bearer('nul-sender'));
    expect([rest.status, rest.body!.message]).toEqual([400, expect.stringMatching(/^eventTitle: /)]);
    const client = createClient({
      url: `${app.url}/graphql/stream`,
      retryAttempts: 0,
      headers: await app.bearer('nul-sender'),
    });
    const results: unknown[] = [];
    await new Promise<void>((resolve) => {
      client.subscribe(
        { query: 'subscription($i: ExecuteInput!) { execute(input: $i) { event } }', variables: { i: input } },
        { next: (m) => void results.push(m), error: (e) => (results.push(e), resolve()), complete: resolve },
      );
    });
    client.dispose();
    const text = JSON.stringify(results);
    expect(text).toMatch(/eventTitle: /);
    expect(text).toMatch(/BAD_REQUEST|bad_request/);
    expect(text).not.toMatch(/accepted/);
    expect(await prisma().order.count()).toBe(before);
  });

  it('400 before streaming: selling more than the caller holds', async () => {
    const r = await execute(
      { marketId: marketB, side: 'sell', outcome: 'yes', size: 1 },
      await app.bearer('empty-handed'),
    );
    expect(r.status).toBe(400);
    expect(r.body!.message).toMatch(/^size: exceeds your position of 0 yes contracts/);
  });
});

describe('Idempotency-Key and disconnects', () => {
  it(
    'a retry replays the first outcome (same ids, replayed: true); another body is a 409 before ' + 'streaming',
    async () => {
      await fund(app, 'retrier', 100);
      const order = { marketId: marketB, side: 'buy', outcome: 'no', size: 5 };
      const headers = { ...(await app.bearer('retrier')), 'idempotency-key': 'buy-once' };
      const first = await execute(order, headers);
      const again = await execute({ size: 5, outcome: 'no', side: 'buy', marketId: marketB }, headers);
      expect(again.status).toBe(200);
      expect(again.events.map((e) => [e.event, e.id])).toEqual(first.events.map((e) => [e.event, e.id]));
      expect(again.events.every((e) => e.data.replayed)).toBe(true);
      expect(lastData(again).order).toEqual(lastData(first).order);
      expect(await prisma().order.count({ where: { userId: 'retrier' } })).toBe(1);
      const other = await execute({ ...order, size: 6 }, headers);
      expect(other.status).toBe(409);
      expect(other.body).toMatchObject({ error: 'conflict' });
      expect((await execute(order, { ...headers, 'idempotency-key': 'bad key' })).status).toBe(400);
      expect((await app.services.get(PaperAccounts).balance('retrier')).available).toBe(
        micros(10_000) - micros(lastData(first).order!.total),
      );
    },
  );

  it(
    'a retried position sell replays even though the position is now closed; a retried /execute sell ' + 'too',
    async () => {
      await fund(app, 'seller', 100);
      const bought = await execute(
        { marketId: marketB, side: 'buy', outcome: 'yes', size: 4 },
        await app.bearer('seller'),
      );
      const positionId = lastData(bought).position!.id;
      const headers = { ...(await app.bearer('seller')), 'idempotency-key': 'sell-all' };
      const first = await sellPosition(positionId, undefined, headers);
      expect(lastData(first).position).toMatchObject({ status: 'closed' });
      const again = await sellPosition(positionId, undefined, headers);
      expect(again.status).toBe(200);
      expect(again.events.map((e) => e.id)).toEqual(first.events.map((e) => e.id));
      expect(again.events.every((e) => e.data.replayed)).toBe(true);
      expect((await sellPosition(positionId, { size: 1 }, headers)).status).toBe(409); // same key, another body
      const other = await sellPosition(positionId, undefined, { ...headers, 'idempotency-key': 'sell-again' });
      expect(other.status).toBe(400); // a new key: the position is closed

      await execute({ marketId: marketB, side: 'buy', outcome: 'no', size: 2 }, await app.bearer('seller'));
      const sellHeaders = { ...(await app.bearer('seller')), 'idempotency-key': 'execute-sell' };
      const sold = await execute({ marketId: marketB, side: 'sell', outcome: 'no', size: 2 }, sellHeaders);
      expect(lastData(sold).event).toBe('completed');
      const resold = await execute({ marketId: marketB, side: 'sell', outcome: 'no', size: 2 }, sellHeaders);
      expect(resold.status).toBe(200);
      expect(lastData(resold)).toMatchObject({ replayed: true, orderId: lastData(sold).orderId });
    },
  );

  it('concurrent requests with one key trade once', async () => {
    await fund(app, 'racer', 100);
    const headers = { ...(await app.bearer('racer')), 'idempotency-key': 'race' };
    const order = { marketId: marketA, side: 'buy', outcome: 'yes', size: 2 };
    const results = await Promise.all([execute(order, headers), execute(order, headers), execute(order, headers)]);
    for (const r of results) expect([200, 409]).toContain(r.status);
    expect(results.filter((r) => r.status === 200 && !r.events[0].data.replayed)).toHaveLength(1);
    expect(await prisma().order.count({ where: { userId: 'racer' } })).toBe(1);
    expect(await app.services.get(LedgerService).audit()).toEqual([]);
  });

  it('a client leaving mid-stream leaves consistent rows: the order commits whole', async () => {
    await fund(app, 'leaver', 100);
    const reader = await openSse(`${app.url}/execute`, {
      method: 'POST',
      headers: { ...(await app.bearer('leaver')), 'content-type': 'application/json' },
      body: JSON.stringify({ marketId: marketB, side: 'buy', outcome: 'yes', size: 30 }),
    });
    expect(reader.status).toBe(200);
    const [accepted] = await reader.take(1);
    reader.close();
    await app.services.get(ExecutionService).drain();
    const orderId = (JSON.parse(accepted.data) as { orderId: string }).orderId;
    const { order, fills } = await orderRows(app, orderId);
    expect(order!.state).toBe('filled');
    expect(fills.reduce((s, f) => s + f.sizeMicros, 0n)).toBe(micros(30));
    const { size, fromFills } = await positionMatchesFills(app, order!.positionId!);
    expect(size).toBe(fromFills);
    expect(await app.services.get(LedgerService).audit()).toEqual([]);
  });
});

describe('GET /openapi.json documents the execution stream', () => {
  it('as text/event-stream with the event names', async () => {
    const doc = (await http(`${app.url}/openapi.json`)).body as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { description: string; content: Record<string, unknown> }> }>
      >;
    };
    const ok = doc.paths['/execute'].post.responses['200'];
    expect(Object.keys(ok.content)).toEqual(['text/event-stream']);
    expect(ok.description).toMatch(/accepted, quote, submitted, fill, then completed, failed or outcome_unknown/);
  });
});
