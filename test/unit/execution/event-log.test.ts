import { EventLog } from '../../../src/modules/execution/event-log';
import { eventsFromOrder } from '../../../src/modules/execution/execution.models';

async function drain<T>(it: AsyncIterableIterator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('EventLog', () => {
  it('gives every reader the whole sequence from the start, including one that joins late', async () => {
    const log = new EventLog<number>();
    const early = log.reader();
    const first = early.next();
    log.push(1);
    expect(await first).toEqual({ done: false, value: 1 });
    log.push(2);
    const late = drain(log.reader());
    log.push(3);
    log.close();
    expect(await drain(early)).toEqual([2, 3]);
    expect(await late).toEqual([1, 2, 3]);
  });

  it('a reader that stops (a client gone) does not stop the writer or other readers', async () => {
    const log = new EventLog<string>();
    const leaving = log.reader();
    const staying = log.reader();
    const pending = leaving.next();
    await leaving.return!();
    expect(await pending).toEqual({ done: true, value: undefined });
    log.push('a');
    log.push('b');
    log.close();
    expect(await drain(staying)).toEqual(['a', 'b']);
    expect(await leaving.next()).toEqual({ done: true, value: undefined });
    expect(log.snapshot()).toEqual(['a', 'b']);
    expect(() => log.push('c')).toThrow('closed');
  });

  it('EventLog.of is a finished log (a replay)', async () => {
    expect(await drain(EventLog.of([1, 2]).reader())).toEqual([1, 2]);
  });
});

describe('eventsFromOrder (an order found by its Idempotency-Key)', () => {
  const at = new Date('2026-11-15T12:00:00Z');
  const order = {
    id: 'o1',
    userId: 'u',
    venue: 'venue_b' as const,
    marketId: 'venue_b:M',
    venueMarketId: 'M',
    coreEventId: 'evt',
    outcome: 'yes' as const,
    side: 'buy' as const,
    orderType: 'market' as const,
    mode: 'simulation' as const,
    limitPriceMicros: null,
    requestedSizeMicros: 3_000_000n,
    filledSizeMicros: 3_000_000n,
    avgPriceMicros: 410_000n,
    notionalMicros: 1_230_000n,
    feeMicros: 20_000n,
    state: 'filled' as const,
    failureReason: null,
    source: 'execute',
    positionId: 'p1',
    externalOrderId: null,
    idempotencyKey: 'k',
    ownerId: null,
    createdAt: at,
    updatedAt: at,
    fills: [
      {
        id: 'f1',
        orderId: 'o1',
        seq: 1,
        priceMicros: 400_000n,
        sizeMicros: 1_000_000n,
        feeMicros: 10_000n,
        filledAt: at,
      },
      {
        id: 'f2',
        orderId: 'o1',
        seq: 2,
        priceMicros: 415_000n,
        sizeMicros: 2_000_000n,
        feeMicros: 10_000n,
        filledAt: at,
      },
    ],
  };

  it('replays accepted, each fill with the running size, then completed', () => {
    const events = eventsFromOrder(order, at);
    expect(events.map((e) => [e.event, e.id, e.replayed])).toEqual([
      ['accepted', 'o1:1', true],
      ['fill', 'o1:2', true],
      ['fill', 'o1:3', true],
      ['completed', 'o1:4', true],
    ]);
    expect(events[2].fill).toMatchObject({ seq: 2, price: 0.415, size: 2, filledSize: 3 });
    expect(events[3].order).toMatchObject({ state: 'filled', total: 1.25, avgPrice: 0.41 });
  });

  it('an order left open replays as `outcome_unknown` (not failed: its hold is kept until it ends)', () => {
    const events = eventsFromOrder({ ...order, state: 'submitted', fills: [] }, at);
    expect(events.map((e) => e.event)).toEqual(['accepted', 'outcome_unknown']);
    expect(events[1].error).toMatchObject({ code: 'timeout' });
    expect(events[1].order).toMatchObject({ state: 'submitted' });
  });
});
