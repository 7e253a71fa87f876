import type { CopytradeMutation } from '../../../schema/generated/operations';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { http, startTestApp, type TestApp } from '../../support/app';
import type { FakeUpstream } from '../../support/fake-upstream';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { fund, setPaperBalance } from '../../support/funding';
import { startWithExecutionService } from '../execution/trading-helpers';
import { insertOpenPositions } from '../portfolio/portfolio-fixtures';
import { gql } from '../../support/graphql';
import { round6, usd } from '../../support/money';
import { wallets } from '../../support/wallets';

type Copy = CopytradeMutation['copytrade'];

/**
 * Copytrading over REST against a real database: caps from the environment
 * (USD 20 per copy, 30 per day, 2 open positions, one category blocked,
 * 0.05 price deviation), 5 copies per user per minute, and a local execution
 * service that fails every call (venue_a live → 502).
 */
let app: TestApp;
let exec: FakeUpstream;
const pinned = pinnedWorld();
const event = activeMatchedEvent(pinned.world);
const marketA = event.markets[0].venueMarketIds.venue_a!;
/** An active venue_a market of an event in another category: that category is blocked. */
const other = pinned.world.coreEvents.find(
  (e) =>
    e.category !== event.category &&
    (e.closeTime?.getTime() ?? 0) > pinned.clock.ms + 86_400_000 &&
    e.markets.some((m) => m.venueMarketIds.venue_a),
)!;
const blockedMarket = other.markets.find((m) => m.venueMarketIds.venue_a)!.venueMarketIds.venue_a!;
const [W1, W2] = wallets('a', 'b');
/** Best YES ask of the market (what a copied buy is compared with). */
let ask: number;
let seq = 0;

beforeAll(async () => {
  ({ app, exec } = await startWithExecutionService(pinned, {
    COPYTRADE_RATE_LIMIT: '5',
    COPYTRADE_MAX_TRADE_USD: '20',
    COPYTRADE_MAX_DAILY_USD: '30',
    COPYTRADE_MAX_OPEN_POSITIONS: '2',
    COPYTRADE_MAX_PRICE_DEVIATION: '0.05',
    COPYTRADE_BLOCKED_CATEGORIES: other.category.toUpperCase(),
  }));
  ask = (await app.services.venues.venue_a.getOrderBook(marketA)).asks[0].price;
});
afterAll(async () => {
  await app.close();
  await exec.close();
});

/** A public trade of `trader`; its id as trader pages show it (`venue_a:…`). */
async function trade(trader: string, price: number, market = marketA, side: 'buy' | 'sell' = 'buy'): Promise<string> {
  seq += 1;
  const venueTradeId = `copy-${seq}`;
  await app.services.db.prisma.trade.create({
    data: {
      venue: 'venue_a',
      venueTradeId,
      venueMarketId: market,
      venueTraderId: trader,
      side,
      outcome: 'yes',
      price: String(price),
      size: '10',
      filledAt: new Date(pinned.clock.ms - 60_000),
    },
  });
  return `venue_a:${venueTradeId}`;
}

const follow = (sub: string, traderId = W1) => app.as(sub).post('/api/follows', { venue: 'venue_a', traderId });
const copy = async (sub: string | null, json: Record<string, unknown>, headers?: Record<string, string>) =>
  http(`${app.url}/api/social/copytrade`, {
    method: 'POST',
    headers: headers ?? (sub ? await app.bearer(sub) : {}),
    json,
  });
const body = (r: { body: unknown }) => r.body as Record<string, unknown> & { message: string; error: string };

describe('POST /api/social/copytrade', () => {
  it('mirrors a followed trader: a filled order with source copytrade, a position and the balance', async () => {
    await follow('ana');
    await fund(app, 'ana', 100);
    const tradeId = await trade(W1, ask);
    const r = await copy('ana', { venue: 'venue_a', traderId: W1.toUpperCase().replace('0X', '0x'), tradeId, size: 5 });
    expect(r.status).toBe(200);
    const b = r.body as Copy;
    expect(b.order).toMatchObject({
      state: 'filled',
      source: 'copytrade',
      side: 'buy',
      outcome: 'yes',
      filledSize: 5,
      orderType: 'limit',
      mode: 'simulation',
    });
    expect(b.bestPrice).toBe(ask);
    expect(b.limitPrice).toBe(round6(ask + 0.05));
    expect(b.order.limitPrice).toBe(round6(ask + 0.05));
    expect(b.order.avgPrice).toBeLessThanOrEqual(b.limitPrice);
    expect(b.copied).toMatchObject({ id: tradeId, price: ask });
    expect(b.position).toMatchObject({ status: 'open', size: 5 });
    expect(b.replayed).toBe(false);
    const order = await app.services.db.prisma.order.findUniqueOrThrow({ where: { id: b.order.id } });
    expect(order).toMatchObject({
      userId: 'ana',
      source: 'copytrade',
      state: 'filled',
      filledSizeMicros: 5_000_000n,
      positionId: b.position!.id,
    });
    const position = await app.services.db.prisma.position.findUniqueOrThrow({ where: { id: b.position!.id } });
    expect(position).toMatchObject({ userId: 'ana', status: 'open', sizeMicros: 5_000_000n, venueMarketId: marketA });
    // Simulated: the paper account pays (10,000 to start), never the USD balance.
    expect(b.balance!.available).toBe(round6(10_000 - usd(order.notionalMicros + order.feeMicros)));
    expect((await app.services.get(LedgerService).balance('ana')).available).toBe(100_000_000n);
  });

  it('amountUsd buys the whole hundredths of a contract it pays for at the best price', async () => {
    await follow('ben');
    await fund(app, 'ben', 100);
    const r = await copy('ben', { venue: 'venue_a', traderId: W1, tradeId: await trade(W1, ask), amountUsd: 3 });
    expect(r.status).toBe(200);
    const expected = Math.floor(Math.round((3 * 1e6 * 1e6) / Math.round(ask * 1e6)) / 1e4) / 100;
    expect((r.body as Copy).order.requestedSize).toBe(expected);
  });

  it('401 without a bearer token; live mode needs the wallet-auth token', async () => {
    const tradeId = await trade(W1, ask);
    expect((await copy(null, { venue: 'venue_a', traderId: W1, tradeId, size: 1 })).status).toBe(401);
    await follow('cleo');
    const userToken = await copy('cleo', { venue: 'venue_a', traderId: W1, tradeId, size: 1, mode: 'live' });
    expect(userToken.status).toBe(401);
  });

  it('400 naming the field for bad bodies', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ traderId: W1, tradeId: 'x', size: 1 }, 'venue'],
      [{ venue: 'venue_c', traderId: W1, tradeId: 'x', size: 1 }, 'venue'],
      [{ venue: 'venue_a', tradeId: 'x', size: 1 }, 'traderId'],
      [{ venue: 'venue_a', traderId: W1, size: 1 }, 'tradeId'],
      [{ venue: 'venue_a', traderId: W1, tradeId: 'x', size: 'ten' }, 'size'],
      [{ venue: 'venue_a', traderId: W1, tradeId: 'x', size: 0 }, 'size'],
      [{ venue: 'venue_a', traderId: W1, tradeId: 'x', size: 2_000_000 }, 'size'],
      [{ venue: 'venue_a', traderId: W1, tradeId: 'x' }, 'size'],
      [{ venue: 'venue_a', traderId: W1, tradeId: 'x', size: 1, amountUsd: 5 }, 'amountUsd'],
      [{ venue: 'venue_a', traderId: W1, tradeId: 'x', size: 1, mode: 'paper' }, 'mode'],
      [{ venue: 'venue_a', traderId: W1, tradeId: 'x', size: 1, maxPriceDeviation: 2 }, 'maxPriceDeviation'],
      [{ venue: 'venue_a', traderId: 'not-a-wallet', tradeId: 'x', size: 1 }, 'traderId'],
    ];
    for (const [json, field] of cases) {
      const r = await copy('dora', json);
      expect([r.status, body(r).message.split(':')[0]]).toEqual([400, field]);
    }
  });

  it("404 when the trader is not followed, the trade is unknown, or it is another trader's", async () => {
    const mine = await trade(W1, ask);
    const theirs = await trade(W2, ask);
    expect((await copy('eli', { venue: 'venue_a', traderId: W1, tradeId: mine, size: 1 })).status).toBe(404);
    await follow('eli');
    expect((await copy('eli', { venue: 'venue_a', traderId: W1, tradeId: 'venue_a:nope', size: 1 })).status).toBe(404);
    expect((await copy('eli', { venue: 'venue_a', traderId: W1, tradeId: theirs, size: 1 })).status).toBe(404);
    expect(
      (await copy('eli', { venue: 'venue_a', traderId: W1, tradeId: mine.replace('venue_a:', 'venue_b:'), size: 1 }))
        .status,
    ).toBe(404);
  });

  it('400 maxTradeUsd: size × limit price above the per-copy cap', async () => {
    await follow('fay');
    await fund(app, 'fay', 100);
    const size = Math.ceil(20.01 / (ask + 0.05));
    const r = await copy('fay', { venue: 'venue_a', traderId: W1, tradeId: await trade(W1, ask), size });
    expect([r.status, body(r).message.split(':')[0]]).toEqual([400, 'maxTradeUsd']);
    expect(await app.services.db.prisma.order.count({ where: { userId: 'fay' } })).toBe(0);
  });

  it('400 maxDailyUsd: the copies since 00:00 UTC plus this one above the per-day cap', async () => {
    await follow('gus');
    await fund(app, 'gus', 100);
    const size = Math.floor(18 / (ask + 0.05));
    const first = await copy('gus', { venue: 'venue_a', traderId: W1, tradeId: await trade(W1, ask), size });
    expect(first.status).toBe(200);
    expect((first.body as Copy).order.state).toBe('filled');
    const second = await copy('gus', { venue: 'venue_a', traderId: W1, tradeId: await trade(W1, ask), size });
    expect([second.status, body(second).message.split(':')[0]]).toEqual([400, 'maxDailyUsd']);
    // A smaller copy still fits under the day's cap.
    const small = await copy('gus', { venue: 'venue_a', traderId: W1, tradeId: await trade(W1, ask), size: 1 });
    expect(small.status).toBe(200);
  });

  it('400 maxOpenPositions: a copy may not open a position beyond the cap', async () => {
    await follow('hal');
    await fund(app, 'hal', 100);
    const markets = await app.services.db.prisma.market.findMany({
      where: { venue: 'venue_a', NOT: { venueMarketId: marketA } },
      take: 2,
      orderBy: { id: 'asc' },
    });
    await insertOpenPositions(app.services.db.prisma, 'hal', markets, '1', '0.5', 'simulation');
    const r = await copy('hal', { venue: 'venue_a', traderId: W1, tradeId: await trade(W1, ask), size: 1 });
    expect([r.status, body(r).message.split(':')[0]]).toEqual([400, 'maxOpenPositions']);
  });

  it('400 category: events of a blocked category are not copied (case-insensitive)', async () => {
    await follow('ida');
    await fund(app, 'ida', 100);
    const book = await app.services.venues.venue_a.getOrderBook(blockedMarket);
    const r = await copy('ida', {
      venue: 'venue_a',
      traderId: W1,
      tradeId: await trade(W1, book.asks[0]?.price ?? 0.5, blockedMarket),
      size: 1,
    });
    expect([r.status, body(r).message.split(':')[0]]).toEqual([400, 'category']);
  });

  it(
    "400 maxPriceDeviation: the best price too far from the trader's, by the cap or the caller's tighter " +
      'tolerance',
    async () => {
      await follow('jon');
      await fund(app, 'jon', 100);
      const far = await copy('jon', {
        venue: 'venue_a',
        traderId: W1,
        tradeId: await trade(W1, round6(ask - 0.06)),
        size: 1,
      });
      expect([far.status, body(far).message.split(':')[0]]).toEqual([400, 'maxPriceDeviation']);
      const tight = await copy('jon', {
        venue: 'venue_a',
        traderId: W1,
        tradeId: await trade(W1, round6(ask - 0.02)),
        size: 1,
        maxPriceDeviation: 0.01,
      });
      expect([tight.status, body(tight).message.split(':')[0]]).toEqual([400, 'maxPriceDeviation']);
      const within = await copy('jon', {
        venue: 'venue_a',
        traderId: W1,
        tradeId: await trade(W1, round6(ask - 0.02)),
        size: 1,
        maxPriceDeviation: 0.03,
      });
      expect(within.status).toBe(200);
      expect((within.body as Copy).limitPrice).toBe(round6(ask + 0.01));
    },
  );

  it('400 naming the reason when the balance cannot pay for the copy', async () => {
    await follow('kai');
    await setPaperBalance(app, 'kai', 0.5);
    const r = await copy('kai', { venue: 'venue_a', traderId: W1, tradeId: await trade(W1, ask), size: 5 });
    expect(r.status).toBe(400);
    expect(body(r).message).toMatch(/^size: insufficient balance/);
    const order = await app.services.db.prisma.order.findFirstOrThrow({ where: { userId: 'kai' } });
    expect(order).toMatchObject({ source: 'copytrade', state: 'rejected' });
  });

  it('502 when execution fails (venue_a live: the execution service refuses the order, 422)', async () => {
    await follow('lea');
    await fund(app, 'lea', 100);
    const r = await copy(
      'lea',
      { venue: 'venue_a', traderId: W1, tradeId: await trade(W1, ask), size: 2, mode: 'live' },
      await app.walletBearer('lea'),
    );
    expect(r.status).toBe(502);
    expect(body(r).error).toBe('upstream_error');
    const order = await app.services.db.prisma.order.findFirstOrThrow({ where: { userId: 'lea' } });
    expect(order).toMatchObject({ source: 'copytrade', state: 'failed', mode: 'live' });
    expect(await app.services.get(LedgerService).balance('lea')).toMatchObject({ available: 100_000_000n, held: 0n });
  });

  it(
    'Idempotency-Key: a retry of a copy that went through replays it before any cap; another body with the key ' +
      'is a 409',
    async () => {
      await follow('pia');
      await fund(app, 'pia', 100);
      // About $16 a copy at its limit (a little less filled at the ask): one fits under $20 per copy
      // and $30 a day; a second does not (the first's notional plus the second's size × limit).
      const size = Math.floor(30 / (2 * ask + 0.05)) + 1;
      expect(size * (ask + 0.05)).toBeLessThanOrEqual(20);
      const json = { venue: 'venue_a', traderId: W1, tradeId: await trade(W1, ask), size };
      const key = { ...(await app.bearer('pia')), 'idempotency-key': 'copy-pia-1' };
      const first = await copy('pia', json, key);
      expect(first.status).toBe(200);
      const b1 = first.body as Copy;
      expect([b1.order.state, b1.replayed]).toEqual(['filled', false]);

      const retry = await copy('pia', json, key);
      expect(retry.status).toBe(200);
      expect(retry.body).toEqual({ ...b1, replayed: true });
      expect(await app.services.db.prisma.order.count({ where: { userId: 'pia', source: 'copytrade' } })).toBe(1);

      const other = await copy('pia', { ...json, size: 1 }, key);
      expect([other.status, body(other).error]).toEqual([409, 'conflict']);
      // Without the key the same body is a new copy, and the day's cap refuses it.
      const fresh = await copy('pia', json, { ...(await app.bearer('pia')), 'idempotency-key': 'copy-pia-2' });
      expect([fresh.status, body(fresh).message.split(':')[0]]).toEqual([400, 'maxDailyUsd']);
      expect(await app.services.db.prisma.order.count({ where: { userId: 'pia', source: 'copytrade' } })).toBe(1);
    },
  );

  it('the GraphQL mutation replays a keyed copy the same way', async () => {
    await follow('pip');
    await fund(app, 'pip', 100);
    // As above: a second copy of this size does not fit the day's cap; its replay does not count again.
    const input = {
      venue: 'venue_a',
      traderId: W1,
      tradeId: await trade(W1, ask),
      size: Math.floor(30 / (2 * ask + 0.05)) + 1,
    };
    const mutate = async () =>
      (
        await gql<Pick<CopytradeMutation, 'copytrade'>>(
          app,
          'mutation($input: CopytradeInput!) { copytrade(input: $input) { order { id state createdAt } replayed } }',
          { input },
          { ...(await app.bearer('pip')), 'idempotency-key': 'gql-pip' },
        )
      ).body;
    const first = await mutate();
    expect(first.data!.copytrade).toMatchObject({ order: { state: 'filled' }, replayed: false });
    expect((await mutate()).data!.copytrade).toEqual({ ...first.data!.copytrade, replayed: true });
  });

  it("parallel copies cannot pass the day's cap together", async () => {
    await follow('quin');
    await fund(app, 'quin', 200);
    // About $12 a copy: two fit under $30 a day, a third does not.
    const size = Math.floor(12 / (ask + 0.05));
    const tradeIds = [await trade(W1, ask), await trade(W1, ask), await trade(W1, ask), await trade(W1, ask)];
    const rs = await Promise.all(
      tradeIds.map((tradeId) => copy('quin', { venue: 'venue_a', traderId: W1, tradeId, size })),
    );
    expect(rs.map((r) => r.status).sort()).toEqual([200, 200, 400, 400]);
    expect(rs.filter((r) => r.status === 400).map((r) => body(r).message.split(':')[0])).toEqual([
      'maxDailyUsd',
      'maxDailyUsd',
    ]);
    const orders = await app.services.db.prisma.order.findMany({ where: { userId: 'quin', source: 'copytrade' } });
    expect(orders).toHaveLength(2);
    expect(orders.reduce((s, o) => s + o.notionalMicros, 0n)).toBeLessThanOrEqual(30_000_000n);
  });

  it('parallel copies through two server instances sharing the database hold the caps too', async () => {
    const second = await startTestApp(
      {
        COPYTRADE_RATE_LIMIT: '5',
        COPYTRADE_MAX_TRADE_USD: '20',
        COPYTRADE_MAX_DAILY_USD: '30',
        COPYTRADE_MAX_OPEN_POSITIONS: '2',
        COPYTRADE_MAX_PRICE_DEVIATION: '0.05',
      },
      {},
      { ...pinned, shareWith: app },
    );
    try {
      await follow('rae');
      await fund(app, 'rae', 200);
      const size = Math.floor(12 / (ask + 0.05));
      const tradeIds = [await trade(W1, ask), await trade(W1, ask), await trade(W1, ask), await trade(W1, ask)];
      const headers = await app.bearer('rae');
      const rs = await Promise.all(
        tradeIds.map((tradeId, i) =>
          http(`${(i % 2 ? second : app).url}/api/social/copytrade`, {
            method: 'POST',
            headers,
            json: { venue: 'venue_a', traderId: W1, tradeId, size },
          }),
        ),
      );
      expect(rs.map((r) => r.status).sort()).toEqual([200, 200, 400, 400]);
      expect(await app.services.db.prisma.order.count({ where: { userId: 'rae', source: 'copytrade' } })).toBe(2);
    } finally {
      await second.close();
    }
  });

  it('Idempotency-Key: replays are answered past the rate limit (only a copy that runs counts)', async () => {
    await follow('quil');
    await fund(app, 'quil', 50);
    const json = { venue: 'venue_a', traderId: W1, tradeId: await trade(W1, ask), size: 1 };
    const key = { ...(await app.bearer('quil')), 'idempotency-key': 'copy-quil-1' };
    const first = await copy('quil', json, key);
    expect(first.status).toBe(200);
    // The limit is 5 a minute: six replays after the copy would pass it if they were counted.
    for (let i = 0; i < 6; i += 1) {
      const replay = await copy('quil', json, key);
      expect([replay.status, (replay.body as Copy).replayed]).toEqual([200, true]);
    }
    expect(await app.services.db.prisma.order.count({ where: { userId: 'quil', source: 'copytrade' } })).toBe(1);
  });

  it('429 past the per-user limit (5 per minute); other users are unaffected', async () => {
    await follow('max');
    const tradeId = await trade(W2, ask); // not followed: each copy is a 404, and each counts
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push((await copy('max', { venue: 'venue_a', traderId: W2, tradeId, size: 1 })).status);
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
    expect((await copy('ned', { venue: 'venue_a', traderId: W2, tradeId, size: 1 })).status).toBe(404);
  });

  it('the GraphQL mutation answers the same outcome', async () => {
    await follow('ola');
    await fund(app, 'ola', 100);
    const tradeId = await trade(W1, ask);
    const r = await gql(
      app,
      'mutation($input: CopytradeInput!) { copytrade(input: $input) { order { state source filledSize } ' +
        'position { size } } }',
      { input: { venue: 'venue_a', traderId: W1, tradeId, size: 2 } },
      await app.bearer('ola'),
    );
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      data: { copytrade: { order: { state: 'filled', source: 'copytrade', filledSize: 2 }, position: { size: 2 } } },
    });
  });
});
