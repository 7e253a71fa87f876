import type { PaperAccountFieldsFragment as PaperAccount } from '../../../schema/generated/operations';
import { loadConfig, ConfigError } from '../../../src/config';
import { PAPER_CURRENCY } from '../../../src/modules/ledger/ledger.models';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { startTestApp, type TestApp } from '../../support/app';
import { lastData, postStream } from '../../support/execution-stream';
import { fund, setPaperBalance } from '../../support/funding';
import { gql } from '../../support/graphql';
import { micros } from '../../support/money';
import { activeMatchedEvent, pinnedWorld, type PinnedWorld } from '../../support/pinned-world';

/**
 * Paper trading: a bearer caller's simulated orders trade in a paper account
 * of their own (paper balance, paper positions), never in the USD balance that
 * funds withdrawals, and their fees earn no rewards.
 */
let app: TestApp;
let pinned: PinnedWorld;
let marketA: string;

beforeAll(async () => {
  pinned = pinnedWorld();
  app = await startTestApp({}, {}, pinned);
  marketA = activeMatchedEvent(pinned.world).markets[0].venueMarketIds.venue_a!;
});
afterAll(async () => {
  await app.close();
});

const usdBalance = (userId: string) => app.services.get(LedgerService).balance(userId);
const execute = async (user: string, body: Record<string, unknown>) =>
  postStream(`${app.url}/execute`, { marketId: marketA, ...body }, await app.bearer(user));

/** A venue_a market outcome whose best bid, some minutes from `start`, is above its best ask at `start`. */
async function profitableRoundTrip(
  start: number,
): Promise<{ marketId: string; outcome: 'yes' | 'no'; sellAt: number }> {
  const markets = pinned.world.coreEvents
    .filter((e) => (e.closeTime?.getTime() ?? 0) > start + 2 * 86_400_000)
    .flatMap((e) => e.markets.map((m) => m.venueMarketIds.venue_a))
    .filter((id): id is string => id !== undefined)
    .slice(0, 20);
  for (const marketId of markets) {
    pinned.clock.ms = start;
    const now = await pinned.world.clients.venue_a.getOrderBook(marketId, 1);
    if (now.asks.length === 0 || now.bids.length === 0) continue;
    const yesAsk = now.asks[0].price;
    const noAsk = 1 - now.bids[0].price;
    for (let minute = 10; minute <= 1_440; minute += 10) {
      pinned.clock.ms = start + minute * 60_000;
      const later = await pinned.world.clients.venue_a.getOrderBook(marketId, 1);
      if (later.bids.length > 0 && later.bids[0].price > yesAsk + 0.01)
        return { marketId, outcome: 'yes', sellAt: pinned.clock.ms };
      if (later.asks.length > 0 && 1 - later.asks[0].price > noAsk + 0.01)
        return { marketId, outcome: 'no', sellAt: pinned.clock.ms };
    }
  }
  throw new Error('no profitable simulated round trip in the pinned world');
}

describe('simulated round trips at a profit', () => {
  it('pay out in the paper account only: the withdrawable balance, its ledger and rewards stay', async () => {
    await fund(app, 'paper-pat', 100);
    const entriesBefore = await app.services.db.prisma.ledgerEntry.count({ where: { userId: 'paper-pat' } });
    // The simulated books are a function of time (the exploit this closes): look ahead on the test clock for an
    // outcome whose bid later rises above its ask now, buy it now, sell it then.
    const start = pinned.clock.ms;
    const plan = await profitableRoundTrip(start);
    pinned.clock.ms = start;
    const bought = await execute('paper-pat', {
      marketId: plan.marketId,
      side: 'buy',
      outcome: plan.outcome,
      size: 10,
    });
    expect(bought.events.at(-1)?.event).toBe('completed');
    const position = lastData(bought).position!;
    pinned.clock.ms = plan.sellAt;
    const sold = await postStream(
      `${app.url}/api/positions/${position.id}/sell`,
      undefined,
      await app.bearer('paper-pat'),
    );
    expect(sold.events.at(-1)?.event).toBe('completed');
    expect(lastData(sold).position).toMatchObject({ status: 'closed' });
    const paper = lastData(sold).balance!.available;
    expect(paper).toBeGreaterThan(10_000); // a profit, in paper dollars

    // The USD balance: untouched, one deposit and nothing else.
    expect(await usdBalance('paper-pat')).toMatchObject({ available: micros(100), held: 0n });
    expect(await app.services.db.prisma.ledgerEntry.count({ where: { userId: 'paper-pat', currency: 'USD' } })).toBe(
      entriesBefore,
    );
    expect(await app.services.db.prisma.rewardEntry.count({ where: { userId: 'paper-pat' } })).toBe(0);
    const live = await app.as('paper-pat').get('/api/portfolio/overview');
    expect(live.body).toMatchObject({ mode: 'live', balances: { available: 100, held: 0 } });
    const sim = await app.as('paper-pat').get('/api/portfolio/overview?mode=simulation');
    expect(sim.body).toMatchObject({ mode: 'simulation', balances: { available: paper, onchain: null } });
  });
});

describe('paper positions and orders', () => {
  it('carry their mode and show only on request (mode=simulation); live reads stay live', async () => {
    const r = await execute('paper-quin', { side: 'buy', outcome: 'no', size: 3 });
    const id = lastData(r).position!.id;
    const liveList = await app.as('paper-quin').get('/api/positions');
    expect(liveList.body).toMatchObject({ total: 0, data: [] });
    const paperList = await app.as('paper-quin').get('/api/positions?mode=simulation');
    expect(paperList.body).toMatchObject({ total: 1, data: [{ id, mode: 'simulation', size: 3 }] });
    expect((await app.as('paper-quin').get('/api/orders')).body).toMatchObject({ total: 0 });
    expect((await app.as('paper-quin').get('/api/orders?mode=simulation')).body).toMatchObject({
      total: 1,
      data: [{ mode: 'simulation', positionId: id }],
    });
    expect((await app.as('paper-quin').get('/api/portfolio/history?mode=simulation')).body).toMatchObject({ total: 1 });
    expect((await app.as('paper-quin').get('/api/portfolio/history')).body).toMatchObject({ total: 0 });
    const q = await gql(
      app,
      '{ positions(mode: simulation) { total data { id mode } } portfolio(mode: simulation) { mode ' +
        'positions { total } } live: portfolio { mode positions { total } } }',
      undefined,
      await app.bearer('paper-quin'),
    );
    expect(q.body.data).toEqual({
      positions: { total: 1, data: [{ id, mode: 'simulation' }] },
      portfolio: { mode: 'simulation', positions: { total: 1 } },
      live: { mode: 'live', positions: { total: 0 } },
    });
    const bad = await app.as('paper-quin').get('/api/positions?mode=paper');
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toMatch(/^mode: must be one of simulation, live/);
  });

  it('a paper position sells in simulation: a live sell of it is a 400 naming mode', async () => {
    const r = await execute('paper-rae', { side: 'buy', outcome: 'yes', size: 2 });
    const id = lastData(r).position!.id;
    const live = await postStream(
      `${app.url}/api/positions/${id}/sell`,
      { mode: 'live' },
      await app.walletBearer('paper-rae'),
    );
    expect(live.status).toBe(400);
    expect(live.body?.message).toMatch(/^mode: the position is in the paper account/);
  });

  it('a short paper balance rejects the order and leaves the USD balance alone', async () => {
    await fund(app, 'paper-sol', 50);
    await setPaperBalance(app, 'paper-sol', 1);
    const r = await execute('paper-sol', { side: 'buy', outcome: 'yes', size: 10 });
    expect(r.events.at(-1)).toMatchObject({ event: 'failed', data: { error: { code: 'insufficient_funds' } } });
    expect(lastData(r).error!.message).toMatch(/\$1\.00 available$/);
    expect(await usdBalance('paper-sol')).toMatchObject({ available: micros(50) });
  });
});

describe('POST /api/paper/reset and resetPaperAccount', () => {
  it('put the paper balance back to the start and close every paper position', async () => {
    await execute('paper-tia', { side: 'buy', outcome: 'yes', size: 5 });
    const before = await app.as('paper-tia').get('/api/portfolio/overview?mode=simulation');
    expect((before.body as { balances: { available: number } }).balances.available).toBeLessThan(10_000);
    const r = await app.as('paper-tia').post('/api/paper/reset');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ currency: 'USD', available: 10_000, startingBalance: 10_000, openPositions: 0 });
    expect((await app.as('paper-tia').get('/api/positions?mode=simulation')).body).toMatchObject({ total: 0 });
    const again = await gql<{ resetPaperAccount: PaperAccount }>(
      app,
      'mutation { resetPaperAccount { available openPositions } }',
      undefined,
      await app.bearer('paper-tia'),
    );
    expect(again.body.data?.resetPaperAccount).toEqual({ available: 10_000, openPositions: 0 });
    const audit = await app.services.get(LedgerService).audit();
    expect(audit.filter((a) => a.userId === 'paper-tia')).toEqual([]);
    const rows = await app.services.db.prisma.ledgerBalance.findMany({ where: { userId: 'paper-tia' } });
    expect(rows.map((b) => [b.currency, b.available])).toEqual([[PAPER_CURRENCY, micros(10_000)]]);
  });

  it('401 without a bearer token', async () => {
    const r = await fetch(`${app.url}/api/paper/reset`, { method: 'POST' });
    expect(r.status).toBe(401);
  });
});

describe('the simulated venues in production', () => {
  const production = {
    NODE_ENV: 'production',
    AUTH_JWT_SECRET: 'u'.repeat(40),
    WALLET_AUTH_JWT_SECRET: 'w'.repeat(40),
    ADMIN_TOKEN: 'a'.repeat(40),
    REWARDS_ADMIN_TOKEN: 'r'.repeat(40),
    FEED_INGEST_TOKEN: 'f'.repeat(40),
    CURSOR_SECRET: 'c'.repeat(40),
    AUTH_JWT_ISSUER: 'https://issuer.example',
    AUTH_JWT_AUDIENCE: 'aggregator',
  };

  it('refuse to start unless ALLOW_SIMULATED_VENUES=true', () => {
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig(production)).toThrow(/ALLOW_SIMULATED_VENUES/);
  });

  it('then run on a random 256-bit secret, never the public seed', () => {
    const secrets = [1, 2, 3].map(
      () => loadConfig({ ...production, ALLOW_SIMULATED_VENUES: 'true', SIM_SEED: '42' }).sim.secret,
    );
    expect(secrets.every((s) => s?.length === 32)).toBe(true);
    expect(new Set(secrets.map((s) => s?.toString('hex'))).size).toBe(3);
  });

  it('keep the configured seed outside production', () => {
    expect(loadConfig({ SIM_SEED: '7' }).sim).toMatchObject({ seed: 7, secret: undefined, shareSecret: false });
  });

  it('use SIM_SECRET when set (nothing to share through the database), and refuse one not 256 bits of hex', () => {
    const hex = 'ab'.repeat(32);
    const prod = loadConfig({ ...production, ALLOW_SIMULATED_VENUES: 'true', SIM_SECRET: hex }).sim;
    expect([prod.secret?.toString('hex'), prod.shareSecret]).toEqual([hex, false]);
    expect(loadConfig({ ...production, ALLOW_SIMULATED_VENUES: 'true' }).sim.shareSecret).toBe(true);
    expect(loadConfig({ SIM_SEED: '7', SIM_SECRET: hex }).sim.secret?.toString('hex')).toBe(hex);
    expect(() => loadConfig({ SIM_SECRET: 'ab'.repeat(16) })).toThrow(/SIM_SECRET: must be 64 hex characters/);
  });
});
