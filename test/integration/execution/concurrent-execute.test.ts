import { randomUUID } from 'node:crypto';
import { NO_BACKGROUND_TIMERS, startTestApp, type TestApp } from '../../support/app';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { lastData, postStream } from '../../support/execution-stream';
import { fund } from '../../support/funding';
import { micros } from '../../support/money';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { PAPER_CURRENCY } from '../../../src/modules/ledger/ledger.models';
import { TradeRecorder, type OrderDraft } from '../../../src/modules/execution';

/**
 * Stored executions of one user on one market, many at once: each commits its order, fills,
 * position and ledger movements in one transaction, and they serialize on the position and the
 * balance rows without deadlocks or lost updates. Also the statement count of one stored
 * simulated execution, which the transaction's batching keeps low.
 */
let app: TestApp;
const pinned = pinnedWorld();
const event = activeMatchedEvent(pinned.world);
const marketB = event.markets[0].venueMarketIds.venue_b!;
beforeAll(async () => {
  // No background SQL inside a statement count.
  app = await startTestApp({ ...NO_BACKGROUND_TIMERS }, {}, pinned);
});
afterAll(async () => {
  await app.close();
});

const prisma = () => app.services.db.prisma;
const execute = async (json: unknown, user: string) => postStream(`${app.url}/execute`, json, await app.bearer(user));
/** A view's dollar figure (6 decimals at most) in micro-units. */
const toMicros = (n: number) => BigInt(Math.round(n * 1e6));

interface Completed {
  order: { state: string; filledSize: number; total: number };
  balance: { available: number; held: number };
}

describe('concurrent stored executions of one user on one market', () => {
  it('simulated: all complete; the position and paper balance add up exactly (the first ones too)', async () => {
    const user = `conc-${randomUUID()}`;
    const buys = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        execute({ marketId: marketB, side: 'buy', outcome: 'yes', size: 1 + (i % 3) }, user),
      ),
    );
    for (const r of buys) expect(r.events[r.events.length - 1].event).toBe('completed');
    const sells = await Promise.all([
      ...Array.from({ length: 4 }, () => execute({ marketId: marketB, side: 'sell', outcome: 'yes', size: 1 }, user)),
      ...Array.from({ length: 3 }, () => execute({ marketId: marketB, side: 'buy', outcome: 'yes', size: 2 }, user)),
    ]);
    for (const r of sells) expect(r.events[r.events.length - 1].event).toBe('completed');

    const all = [...buys, ...sells].map((r) => lastData(r) as unknown as Completed);
    const bought = [...buys, ...sells.slice(4)].map((r) => (lastData(r) as unknown as Completed).order.filledSize);
    const sold = sells.slice(0, 4).map((r) => (lastData(r) as unknown as Completed).order.filledSize);
    const expectedSize = toMicros(bought.reduce((a, b) => a + b, 0) - sold.reduce((a, b) => a + b, 0));
    const position = await prisma().position.findFirstOrThrow({
      where: { userId: user, venueMarketId: marketB, outcome: 'yes', mode: 'simulation' },
    });
    expect(position.sizeMicros).toBe(expectedSize);

    // Every order's total moved the paper balance once: start − buys' totals + sells' totals.
    const orders = await prisma().order.findMany({ where: { userId: user }, include: { fills: true } });
    expect(orders).toHaveLength(all.length);
    expect(orders.every((o) => o.state === 'filled')).toBe(true);
    const entries = await prisma().ledgerEntry.findMany({ where: { userId: user, currency: PAPER_CURRENCY } });
    const grants = entries.filter((e) => e.kind === 'paper_grant');
    expect(grants).toHaveLength(1);
    const balance = await prisma().ledgerBalance.findUniqueOrThrow({
      where: { userId_currency: { userId: user, currency: PAPER_CURRENCY } },
    });
    expect(balance.available).toBe(entries.reduce((s, e) => s + e.availableDelta, 0n));
    const spent = orders.reduce(
      (s, o) => s + (o.side === 'buy' ? -(o.notionalMicros + o.feeMicros) : o.notionalMicros - o.feeMicros),
      0n,
    );
    expect(balance.available).toBe(grants[0].availableDelta + spent);
    expect(await app.services.get(LedgerService).audit()).toEqual([]);
  });

  it('live, at the recorder: a balance covering k of n equal orders fills exactly k, rejects the rest', async () => {
    const user = `conc-live-${randomUUID()}`;
    const db = app.services.db;
    const ledger = app.services.get(LedgerService);
    const recorder = new TradeRecorder(db.prisma, ledger, []);
    const at = new Date();
    const fills = [
      { price: micros(0.4), size: micros(2), fee: micros(0.05), filledAt: at },
      { price: micros(0.5), size: micros(1), fee: micros(0.02), filledAt: at },
    ];
    // Each order costs its notional and its fees: 0.4 × 2 + 0.5 × 1 + 0.05 + 0.02.
    const cost = micros(0.8) + micros(0.5) + micros(0.05) + micros(0.02);
    await fund(app, user, cost * 5n);
    const draft = (): OrderDraft => ({
      id: randomUUID(),
      userId: user,
      venue: 'venue_b',
      marketKey: `venue_b:${marketB}`,
      venueMarketId: marketB,
      coreEventId: null,
      outcome: 'no',
      side: 'buy',
      orderType: 'market',
      mode: 'live',
      limitPriceMicros: null,
      requestedSizeMicros: micros(3),
      source: 'execute',
      positionId: null,
      idempotencyKey: null,
    });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => recorder.settle(draft(), false, 'filled', fills)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.filter((r) => !r.ok && r.code === 'insufficient_funds')).toHaveLength(3);
    const balance = await ledger.balance(user);
    expect(balance).toMatchObject({ available: 0n, held: 0n });
    const position = await db.prisma.position.findFirstOrThrow({
      where: { userId: user, venueMarketId: marketB, outcome: 'no', mode: 'live' },
    });
    expect(position.sizeMicros).toBe(micros(15));
    expect(await ledger.audit()).toEqual([]);
  });
});

describe('statements per stored simulated execution', () => {
  /** The SQL statements one `/execute` of `order` runs for `user` (its whole stream read). */
  async function counted(order: Record<string, unknown>, user: string): Promise<number> {
    const headers = await app.bearer(user);
    const before = app.services.db.queryCount();
    const r = await postStream(`${app.url}/execute`, order, headers);
    const used = app.services.db.queryCount() - before;
    expect(lastData(r).order).toMatchObject({ state: 'filled' });
    expect(r.events.filter((e) => e.event === 'fill').length).toBeGreaterThanOrEqual(1);
    return used;
  }

  it('a buy is 1 statement (position, order, fills, ledger, notification; no BEGIN), first or not', async () => {
    const user = `stmts-${randomUUID()}`;
    const buy = { marketId: marketB, side: 'buy', outcome: 'yes', size: 3 };
    // The first grants the paper balance and creates the position, in the same statement (the market's row is
    // read once per catalog cache period: warm it first).
    await counted(buy, `stmts-${randomUUID()}`);
    const first = await counted(buy, user);
    const later = await counted(buy, user);
    const sell = await counted({ marketId: marketB, side: 'sell', outcome: 'yes', size: 1 }, user);
    process.stdout.write(`\nstored simulated execution: buys ${first}, ${later}; sell ${sell} SQL statements\n`);
    expect([first, later]).toEqual([1, 1]);
    // A sell reads what the position holds before its order (a 400 beyond it), then locks it in the transaction.
    expect(sell).toBeLessThanOrEqual(7);
  });
});
