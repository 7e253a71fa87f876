import { createClient } from 'graphql-sse';
import { PAPER_CURRENCY } from '../../../src/modules/ledger/ledger.models';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { startTestApp, type TestApp } from '../../support/app';
import { lastData, names, postStream } from '../../support/execution-stream';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream';
import { fund } from '../../support/funding';
import { micros } from '../../support/money';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';

/**
 * Live orders never settle in the withdrawable USD balance on fills the
 * simulated venues made up: in production they are a 409 before anything is
 * held or written; elsewhere a live order on the simulated venue_b trades in
 * the caller's paper account.
 */
const pinned = pinnedWorld();
const event = activeMatchedEvent(pinned.world);
const marketA = event.markets[0].venueMarketIds.venue_a!;
const marketB = event.markets[0].venueMarketIds.venue_b!;

/** Production with every secret it requires, running the simulated venues. */
const PRODUCTION: Record<string, string> = {
  NODE_ENV: 'production',
  ALLOW_SIMULATED_VENUES: 'true',
  AUTH_JWT_SECRET: 'user-secret-'.padEnd(48, 'u'),
  WALLET_AUTH_JWT_SECRET: 'wallet-secret-'.padEnd(48, 'w'),
  AUTH_JWT_ISSUER: 'https://issuer.example',
  AUTH_JWT_AUDIENCE: 'aggregator',
  ADMIN_TOKEN: 'admin-token-'.padEnd(48, 'a'),
  REWARDS_ADMIN_TOKEN: 'rewards-token-'.padEnd(48, 'r'),
  FEED_INGEST_TOKEN: 'feed-token-'.padEnd(48, 'f'),
  CURSOR_SECRET: 'cursor-secret-'.padEnd(48, 'c'),
};

/** A live position of `userId` on the simulated venue_b, as one opened before live orders there were refused. */
async function livePositionOnSimulatedVenue(app: TestApp, userId: string): Promise<string> {
  const p = await app.services.db.prisma.position.create({
    data: {
      userId,
      venue: 'venue_b',
      marketId: `venue_b:${marketB}`,
      venueMarketId: marketB,
      coreEventId: event.id,
      outcome: 'yes',
      status: 'open',
      sizeMicros: micros(3),
      costBasisMicros: micros(1.5),
      mode: 'live',
    },
  });
  return p.id;
}

describe('in production', () => {
  let app: TestApp;
  let exec: FakeUpstream;
  beforeAll(async () => {
    // venue_a's live orders would go to an execution service: it must not be asked either.
    exec = await startFakeUpstream(() => ({ status: 500 }));
    app = await startTestApp({ ...PRODUCTION, EXECUTION_SERVICE_URL: exec.url }, {}, pinned);
  });
  afterAll(async () => {
    await app.close();
    await exec.close();
  });

  const live = async (sub: string, body: Record<string, unknown>) =>
    postStream(
      `${app.url}/execute`,
      { mode: 'live', side: 'buy', outcome: 'yes', ...body },
      await app.walletBearer(sub),
    );

  it('a live order on a simulated venue is a 409 naming the venue; nothing is held or written', async () => {
    await fund(app, 'prod-pia', 500);
    const b = await live('prod-pia', { marketId: marketB, venue: 'venue_b', size: 10 });
    expect([b.status, b.body]).toEqual([
      409,
      { error: 'conflict', message: 'venue_b is simulated here: live orders need a live venue (use mode=simulation)' },
    ]);
    const a = await live('prod-pia', { marketId: marketA, size: 1 });
    expect(a.status).toBe(409);
    expect(a.body?.message).toMatch(/^venue_a is simulated here: live orders need a live venue/);
    expect(exec.requests).toHaveLength(0);

    const client = createClient({
      url: `${app.url}/graphql/stream`,
      retryAttempts: 0,
      headers: await app.walletBearer('prod-pia'),
    });
    const results: unknown[] = [];
    await new Promise<void>((resolve) => {
      client.subscribe(
        {
          query: 'subscription($i: ExecuteInput!) { execute(input: $i) { event } }',
          variables: { i: { marketId: marketB, side: 'buy', outcome: 'yes', size: 10, mode: 'live' } },
        },
        { next: (m) => void results.push(m), error: (e) => (results.push(e), resolve()), complete: resolve },
      );
    });
    client.dispose();
    expect(JSON.stringify(results)).toMatch(/venue_b is simulated here/);
    expect(JSON.stringify(results)).not.toMatch(/accepted/);

    const prisma = app.services.db.prisma;
    expect(await prisma.order.count({ where: { userId: 'prod-pia' } })).toBe(0);
    expect(await prisma.position.count({ where: { userId: 'prod-pia' } })).toBe(0);
    expect(await app.services.get(LedgerService).balance('prod-pia')).toMatchObject({
      available: micros(500),
      held: 0n,
    });
    expect((await prisma.ledgerEntry.findMany({ where: { userId: 'prod-pia' } })).map((e) => e.kind)).toEqual([
      'deposit',
    ]);
  });

  it('a live position on a simulated venue does not sell live: 409 before anything runs', async () => {
    await fund(app, 'prod-ray', 50);
    const id = await livePositionOnSimulatedVenue(app, 'prod-ray');
    for (const body of [{}, { mode: 'live' }, { size: 1 }]) {
      const r = await postStream(`${app.url}/api/positions/${id}/sell`, body, await app.walletBearer('prod-ray'));
      expect([r.status, r.body?.error]).toEqual([409, 'conflict']);
      expect(r.body?.message).toMatch(/^venue_b is simulated here/);
    }
    expect(await app.services.db.prisma.order.count({ where: { userId: 'prod-ray' } })).toBe(0);
    expect((await app.services.get(LedgerService).balance('prod-ray')).available).toBe(micros(50));
  });

  it('simulation still trades, in the paper account', async () => {
    await fund(app, 'prod-sim', 500);
    const r = await postStream(
      `${app.url}/execute`,
      { marketId: marketB, side: 'buy', outcome: 'yes', size: 10, mode: 'simulation' },
      await app.bearer('prod-sim'),
    );
    expect(names(r).at(-1)).toBe('completed');
    expect(lastData(r).order).toMatchObject({ mode: 'simulation', state: 'filled' });
    expect((await app.services.get(LedgerService).balance('prod-sim')).available).toBe(micros(500));
  });
});

describe('outside production', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({}, {}, pinned);
  });
  afterAll(() => app.close());

  it('a live order on the simulated venue_b settles in the paper account, never in USD', async () => {
    await fund(app, 'dev-lee', 500);
    const bought = await postStream(
      `${app.url}/execute`,
      { mode: 'live', marketId: marketB, side: 'buy', outcome: 'yes', size: 10 },
      await app.walletBearer('dev-lee'),
    );
    expect(names(bought)).toEqual(['accepted', 'quote', 'submitted', 'fill', 'completed']);
    const done = lastData(bought);
    expect(done.order).toMatchObject({ mode: 'simulation', state: 'filled', filledSize: 10 });
    expect(done.position).toMatchObject({ size: 10 });
    // The balance the stream reports is the paper account's.
    expect(done.balance!.available).toBeCloseTo(10_000 - done.order!.total, 6);

    const sold = await postStream(
      `${app.url}/execute`,
      { mode: 'live', marketId: marketB, side: 'sell', outcome: 'yes', size: 4 },
      await app.walletBearer('dev-lee'),
    );
    expect(lastData(sold).order).toMatchObject({ mode: 'simulation', state: 'filled', filledSize: 4 });
    expect(lastData(sold).position).toMatchObject({ id: done.position!.id, size: 6 });

    const prisma = app.services.db.prisma;
    const positions = await prisma.position.findMany({ where: { userId: 'dev-lee' } });
    expect(positions.map((p) => [p.mode, p.sizeMicros])).toEqual([['simulation', micros(6)]]);
    const trades = await prisma.ledgerEntry.findMany({
      where: { userId: 'dev-lee', reference: { in: [`order:${done.orderId}`, `order:${lastData(sold).orderId}`] } },
    });
    expect(trades.length).toBeGreaterThan(0);
    expect(new Set(trades.map((e) => e.currency))).toEqual(new Set([PAPER_CURRENCY]));
    expect(await app.services.get(LedgerService).balance('dev-lee')).toMatchObject({
      available: micros(500),
      held: 0n,
    });
  });

  it('a live position there (opened before this rule) does not sell: 409 naming the venue', async () => {
    const id = await livePositionOnSimulatedVenue(app, 'dev-old');
    const r = await postStream(`${app.url}/api/positions/${id}/sell`, {}, await app.walletBearer('dev-old'));
    expect([r.status, r.body?.error]).toEqual([409, 'conflict']);
    expect(r.body?.message).toMatch(/^venue_b is simulated here: its live orders settle in the paper account/);
    expect(await app.services.db.prisma.order.count({ where: { userId: 'dev-old' } })).toBe(0);
  });
});
