import { randomUUID } from 'node:crypto';
import type { Database } from '../../../src/db';
import { afterCommit } from '../../../src/db/commit-hooks';
import type { Fill, Order, Position } from '../../../src/db/generated/client';
import { TradeRecorder, type OrderDraft } from '../../../src/modules/execution';
import type { OrderListener } from '../../../src/modules/execution/order-listener';
import { NotificationsService, SimulatedPushClient, type NewNotification } from '../../../src/modules/notifications';
import { LedgerService, type FeeCharged, type FeeListener, type LedgerDb } from '../../../src/modules/ledger';
import { PaperAccounts } from '../../../src/modules/paper';
import { applyFill, type PositionState } from '../../../src/modules/portfolio/position.math';
import { openTestDatabase } from '../../support/db';
import { micros } from '../../support/money';

let db: Database;
let ledger: LedgerService;
beforeAll(async () => {
  db = await openTestDatabase();
  ledger = new LedgerService(db.prisma);
});
afterAll(async () => {
  await db.close();
});

const draft = (userId: string, over: Partial<OrderDraft> = {}): OrderDraft => ({
  id: randomUUID(),
  userId,
  venue: 'venue_b',
  marketKey: 'venue_b:KX-TEST',
  venueMarketId: 'KX-TEST',
  coreEventId: null,
  outcome: 'yes',
  side: 'buy',
  orderType: 'market',
  mode: 'live',
  limitPriceMicros: null,
  requestedSizeMicros: micros(10),
  source: 'execute',
  positionId: null,
  idempotencyKey: null,
  ...over,
});
const at = new Date('2026-11-15T12:00:00Z');
const fills = [
  { price: micros(0.4), size: micros(6), fee: micros(0.11), filledAt: at },
  { price: micros(0.42), size: micros(4), fee: micros(0.07), filledAt: at },
];

/** Records what it is told, writing a row through the caller's transaction. */
class RecordingListener implements FeeListener {
  readonly seen: FeeCharged[] = [];
  async onFeeCharged(tx: LedgerDb, fee: FeeCharged): Promise<void> {
    this.seen.push(fee);
    await tx.appSetting.create({ data: { key: `fee:${fee.orderId}:${fee.seq}`, value: String(fee.feeMicros) } });
  }
}

describe('TradeRecorder.settle', () => {
  it('tells every fee listener of each fee inside the transaction, and everything commits together', async () => {
    await ledger.postAll([
      { userId: 'r1', kind: 'deposit', available: micros(50), held: 0n, reference: 'test', idempotencyKey: 'r1-dep' },
    ]);
    const listener = new RecordingListener();
    const d = draft('r1');
    const r = await new TradeRecorder(db.prisma, ledger, [listener]).settle(d, false, 'filled', fills);
    if (!r.ok) throw new Error(r.message);
    // What settle returns is what it stored (the new order's rows are written in one raw statement).
    expect(r.order).toEqual(await db.prisma.order.findUniqueOrThrow({ where: { id: d.id } }));
    expect(r.position).toEqual(await db.prisma.position.findUniqueOrThrow({ where: { id: r.position.id } }));
    expect(listener.seen).toEqual([
      { userId: 'r1', orderId: d.id, seq: 1, venue: 'venue_b', feeMicros: micros(0.11), chargedAt: at },
      { userId: 'r1', orderId: d.id, seq: 2, venue: 'venue_b', feeMicros: micros(0.07), chargedAt: at },
    ]);
    expect(await db.prisma.appSetting.count({ where: { key: { startsWith: `fee:${d.id}:` } } })).toBe(2);
    // 6 × 0.40 + 4 × 0.42 = 4.08, fees 0.18.
    expect((await ledger.balance('r1')).available).toBe(micros(50 - 4.08 - 0.18));
    const stored = await db.prisma.fill.findMany({ where: { orderId: d.id }, orderBy: { seq: 'asc' } });
    expect(
      stored.map(({ seq, priceMicros, sizeMicros, feeMicros, filledAt }) => ({
        seq,
        priceMicros,
        sizeMicros,
        feeMicros,
        filledAt,
      })),
    ).toEqual(
      fills.map((f, i) => ({ seq: i + 1, priceMicros: f.price, sizeMicros: f.size, feeMicros: f.fee, filledAt: at })),
    );
    const position = await db.prisma.position.findFirstOrThrow({ where: { userId: 'r1' } });
    expect(position).toMatchObject({
      sizeMicros: micros(10),
      costBasisMicros: micros(4.08),
      realizedPnlMicros: -micros(0.18),
      feesMicros: micros(0.18),
      status: 'open',
    });
  });

  it('a listener that fails rolls the whole trade back: no order, fills, position or movement', async () => {
    await ledger.postAll([
      { userId: 'r2', kind: 'deposit', available: micros(50), held: 0n, reference: 'test', idempotencyKey: 'r2-dep' },
    ]);
    const failing: FeeListener = {
      onFeeCharged: async () => {
        throw new Error('rewards store down');
      },
    };
    const d = draft('r2');
    await expect(
      new TradeRecorder(db.prisma, ledger, [new RecordingListener(), failing]).settle(d, false, 'filled', fills),
    ).rejects.toThrow('rewards store down');
    expect(await db.prisma.order.count({ where: { id: d.id } })).toBe(0);
    expect(await db.prisma.fill.count({ where: { orderId: d.id } })).toBe(0);
    expect(await db.prisma.position.count({ where: { userId: 'r2' } })).toBe(0);
    expect(await db.prisma.ledgerEntry.count({ where: { reference: `order:${d.id}` } })).toBe(0);
    expect(await db.prisma.appSetting.count({ where: { key: { startsWith: `fee:${d.id}:` } } })).toBe(0);
    expect((await ledger.balance('r2')).available).toBe(micros(50));
  });

  it('a sell beyond the position is rejected and writes only the rejected order', async () => {
    const d = draft('r3', { side: 'sell' });
    const r = await new TradeRecorder(db.prisma, ledger, []).settle(d, false, 'filled', fills);
    expect(r).toMatchObject({ ok: false, code: 'insufficient_position' });
    expect(await db.prisma.order.findUniqueOrThrow({ where: { id: d.id } })).toMatchObject({
      state: 'rejected',
      filledSizeMicros: 0n,
    });
    expect(await db.prisma.position.count({ where: { userId: 'r3' } })).toBe(0);
    expect(await ledger.audit()).toEqual([]);
  });

  it('concurrent buys on one position serialize on its row: the position equals the sum of the fills', async () => {
    await ledger.postAll([
      { userId: 'r4', kind: 'deposit', available: micros(500), held: 0n, reference: 'test', idempotencyKey: 'r4-dep' },
    ]);
    const recorder = new TradeRecorder(db.prisma, ledger, []);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => recorder.settle(draft('r4'), false, 'filled', fills)),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    const position = await db.prisma.position.findFirstOrThrow({ where: { userId: 'r4' } });
    expect(position).toMatchObject({
      sizeMicros: micros(60),
      costBasisMicros: micros(24.48),
      feesMicros: micros(1.08),
    });
    expect((await ledger.balance('r4')).available).toBe(micros(500 - 24.48 - 1.08));
    expect(await ledger.audit()).toEqual([]);
  });

  it('a buy after the position was sold out reopens it, its figures the position math over every fill', async () => {
    await ledger.postAll([
      { userId: 'r6', kind: 'deposit', available: micros(100), held: 0n, reference: 'test', idempotencyKey: 'r6-dep' },
    ]);
    const recorder = new TradeRecorder(db.prisma, ledger, []);
    const sellAll = [{ price: micros(0.5), size: micros(10), fee: micros(0.05), filledAt: at }];
    const steps: [OrderDraft, typeof fills][] = [
      [draft('r6'), fills],
      [draft('r6', { side: 'sell' }), sellAll],
      [draft('r6'), fills],
    ];
    let state: PositionState = { size: 0n, costBasis: 0n, realizedPnl: 0n, fees: 0n };
    const rows = [];
    for (const [d, f] of steps) {
      const r = await recorder.settle(d, false, 'filled', f);
      if (!r.ok) throw new Error(r.message);
      for (const x of f)
        state = applyFill(state, { side: d.side, size: x.size, notional: (x.price * x.size) / micros(1), fee: x.fee });
      rows.push(await db.prisma.position.findUniqueOrThrow({ where: { id: r.position.id } }));
      expect(r.position).toEqual(rows.at(-1));
      expect(rows.at(-1)).toMatchObject({
        sizeMicros: state.size,
        costBasisMicros: state.costBasis,
        realizedPnlMicros: state.realizedPnl,
        feesMicros: state.fees,
      });
    }
    const [bought, sold, reopened] = rows;
    expect(sold).toMatchObject({ id: bought.id, status: 'closed', sizeMicros: 0n });
    expect(sold.closedAt).toBeInstanceOf(Date);
    expect(reopened).toMatchObject({ id: bought.id, status: 'open', closedAt: null });
    expect(reopened.openedAt.getTime()).toBeGreaterThanOrEqual(sold.closedAt!.getTime());
    expect(await db.prisma.position.count({ where: { userId: 'r6' } })).toBe(1);
    expect(await ledger.audit()).toEqual([]);
  });

  it('settles a simulated order in the paper account, tells no fee listener, leaves USD untouched', async () => {
    await ledger.postAll([
      { userId: 'r5', kind: 'deposit', available: micros(50), held: 0n, reference: 'test', idempotencyKey: 'r5-dep' },
    ]);
    const listener = new RecordingListener();
    const paper = new PaperAccounts(db.prisma, ledger, micros(1_000));
    const recorder = new TradeRecorder(db.prisma, ledger, [listener], paper);
    const r = await recorder.settle(draft('r5', { mode: 'simulation' }), false, 'filled', fills);
    expect(r).toMatchObject({ ok: true, balance: { currency: 'PAPER_USD', available: micros(1_000 - 4.08 - 0.18) } });
    expect(listener.seen).toEqual([]);
    expect((await ledger.balance('r5')).available).toBe(micros(50));
    expect(await db.prisma.position.findFirstOrThrow({ where: { userId: 'r5' } })).toMatchObject({
      mode: 'simulation',
      sizeMicros: micros(10),
    });
    // A live buy of the same market outcome is another position.
    await recorder.settle(draft('r5'), false, 'filled', fills);
    expect(await db.prisma.position.count({ where: { userId: 'r5' } })).toBe(2);
    expect((await ledger.balance('r5')).available).toBe(micros(50 - 4.08 - 0.18));
    expect(await ledger.audit()).toEqual([]);
  });
});

describe('TradeRecorder.settle: a new simulated buy in one statement', () => {
  const notificationsOf = () => {
    const service = new NotificationsService(db.prisma, new SimulatedPushClient());
    return {
      notify: (items: NewNotification[], tx?: Parameters<NotificationsService['notify']>[1]) =>
        service.notify(items, tx),
      inStatement: (items: readonly NewNotification[]) => service.statementPart(items),
    };
  };
  const notes = (order: Order): NewNotification[] => [
    {
      userId: order.userId,
      kind: 'order_fill',
      title: 'Order filled',
      body: `order ${order.id}`,
      data: { orderId: order.id },
    },
  ];
  /** What an order wrote, without its ids and times: the rows two ways of writing it must agree on. */
  async function written(userId: string) {
    const orders = await db.prisma.order.findMany({ where: { userId }, include: { fills: true } });
    const positions = await db.prisma.position.findMany({ where: { userId } });
    const entries = await db.prisma.ledgerEntry.findMany({ where: { userId }, orderBy: { id: 'asc' } });
    const notifications = await db.prisma.notification.findMany({ where: { userId } });
    return {
      orders: orders.map(({ id: _i, userId: _u, positionId, createdAt: _c, updatedAt: _up, fills: f, ...o }) => ({
        ...o,
        positioned: positionId === positions[0]?.id,
        fills: f.map(({ id: _f, orderId: _o, ...rest }) => rest).sort((a, b) => a.seq - b.seq),
      })),
      positions: positions.map(({ id: _i, userId: _u, openedAt: _o, updatedAt: _up, ...p }) => p),
      entries: entries.map((e) => [e.kind, e.currency, e.availableDelta, e.heldDelta]),
      balance: await db.prisma.ledgerBalance.findMany({
        where: { userId },
        select: { currency: true, available: true },
      }),
      notifications: notifications.map((n) => [n.kind, n.title]),
    };
  }
  /** The order listener's calls, each once its rows committed. */
  class Announced implements OrderListener {
    readonly seen: string[] = [];
    orderChanged(tx: object, order: Order): void {
      if (!afterCommit(tx, () => this.seen.push(`order ${order.state}`))) throw new Error('outside a transaction');
    }
    filled(tx: object, order: Order, f: readonly Fill[], position: Position): void {
      if (!afterCommit(tx, () => this.seen.push(`fills ${f.length}, position ${position.sizeMicros}`)))
        throw new Error('outside a transaction');
    }
  }

  it('writes in one statement what the transaction writes (grant, order, fills, position, notification)', async () => {
    const paper = new PaperAccounts(db.prisma, ledger, micros(1_000));
    const one = new TradeRecorder(db.prisma, ledger, [], paper, undefined, db.sql, notificationsOf());
    const inTransaction = new TradeRecorder(db.prisma, ledger, [], paper, undefined, undefined, notificationsOf());
    const heard = new Announced();
    one.watch(heard);
    const before = db.queryCount();
    const r = await one.settle(draft('s1', { mode: 'simulation' }), false, 'filled', fills, null, notes);
    expect(db.queryCount() - before).toBe(1);
    if (!r.ok) throw new Error(r.message);
    expect(r.order).toEqual(await db.prisma.order.findUniqueOrThrow({ where: { id: r.order.id } }));
    expect(r.position).toEqual(await db.prisma.position.findUniqueOrThrow({ where: { id: r.position.id } }));
    expect(r.balance).toEqual({
      userId: 's1',
      currency: 'PAPER_USD',
      available: micros(1_000 - 4.08 - 0.18),
      held: 0n,
    });
    expect(heard.seen).toEqual(['order filled', `fills 2, position ${micros(10)}`]);
    await inTransaction.settle(draft('s2', { mode: 'simulation' }), false, 'filled', fills, null, notes);
    expect(await written('s1')).toEqual(await written('s2'));
    // And the next buy of the same position (no grant any more) alike.
    await one.settle(draft('s1', { mode: 'simulation' }), false, 'filled', fills, null, notes);
    await inTransaction.settle(draft('s2', { mode: 'simulation' }), false, 'filled', fills, null, notes);
    const [a, b] = [await written('s1'), await written('s2')];
    expect(a).toEqual(b);
    expect(a.positions).toEqual([expect.objectContaining({ sizeMicros: micros(20) })]);
    expect(a.notifications).toHaveLength(2);
    expect(await ledger.audit()).toEqual([]);
  });

  it('short: none of it stays, and the order is recorded rejected as the transaction records it', async () => {
    const paper = new PaperAccounts(db.prisma, ledger, micros(5));
    const one = new TradeRecorder(db.prisma, ledger, [], paper, undefined, db.sql, notificationsOf());
    const heard = new Announced();
    one.watch(heard);
    // The first buy (4.26 of 5) fills; the second finds 0.74 and is refused whole.
    expect(await one.settle(draft('s3', { mode: 'simulation' }), false, 'filled', fills, null, notes)).toMatchObject({
      ok: true,
    });
    const before = await written('s3');
    heard.seen.length = 0;
    const d = draft('s3', { mode: 'simulation' });
    const r = await one.settle(d, false, 'filled', fills, null, notes);
    expect(r).toMatchObject({ ok: false, code: 'insufficient_funds', order: { id: d.id, state: 'rejected' } });
    if (r.ok) throw new Error('filled');
    expect(r.message).toBe('insufficient balance: the order costs $4.26 ($4.08 + $0.18 fees), $0.74 available');
    const after = await written('s3');
    expect(after.orders).toEqual([...before.orders, expect.objectContaining({ state: 'rejected', fills: [] })]);
    expect({ ...after, orders: before.orders }).toEqual(before);
    expect(heard.seen).toEqual(['order rejected']);
    expect(await ledger.audit()).toEqual([]);
  });

  it("one user's first buys at once: each once, the grant once, the balance what is left", async () => {
    const paper = new PaperAccounts(db.prisma, ledger, micros(1_000));
    const one = new TradeRecorder(db.prisma, ledger, [], paper, undefined, db.sql, notificationsOf());
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        one.settle(draft('s4', { mode: 'simulation' }), false, 'filled', fills, null, notes),
      ),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    const w = await written('s4');
    expect(w.positions).toEqual([
      expect.objectContaining({ sizeMicros: micros(80), costBasisMicros: micros(8 * 4.08) }),
    ]);
    expect(w.entries.filter(([kind]) => kind === 'paper_grant')).toHaveLength(1);
    expect(w.balance).toEqual([{ currency: 'PAPER_USD', available: micros(1_000 - 8 * 4.26) }]);
    expect(w.notifications).toHaveLength(8);
    expect(await ledger.audit()).toEqual([]);
  });
});
