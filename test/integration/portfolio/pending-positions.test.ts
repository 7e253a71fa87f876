import type { PositionsQuery } from '../../../schema/generated/operations';
import { ExecutionService } from '../../../src/modules/execution/execution.service';
import type { TestApp } from '../../support/app';
import type { FakeUpstream, UpstreamReply } from '../../support/fake-upstream';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { openSse, type SseReader } from '../../support/sse';
import { lastData, postStream } from '../../support/execution-stream';
import { fund } from '../../support/funding';
import { isOrderCall, startWithExecutionService } from '../execution/trading-helpers';

/**
 * Position status `pending`: a live order in flight where the caller holds no
 * open position shows a pending position, open on its first fill, gone (or
 * back to closed) when the order ends without fills.
 */
let app: TestApp;
let exec: FakeUpstream;
const pinned = pinnedWorld();
const event = activeMatchedEvent(pinned.world);
const marketA = event.markets[0].venueMarketIds.venue_a!;
beforeAll(async () => {
  ({ app, exec } = await startWithExecutionService(pinned));
});
afterAll(async () => {
  await app.close();
  await exec.close();
});

const positions = async (sub: string, status?: string) => {
  const r = await app.as(sub).get(`/api/positions${status ? `?status=${status}` : ''}`);
  expect(r.status).toBe(200);
  return r.body as PositionsQuery['positions'];
};

/** A live venue_a order whose execution-service answer waits for `release()`; the stream is read up to `submitted`. */
async function gatedLiveOrder(
  sub: string,
  body: Record<string, unknown>,
  final: UpstreamReply['body'],
): Promise<{ reader: SseReader; release: () => void }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  exec.handle(async (r) => {
    if (isOrderCall(r)) return { body: { id: `ex-${sub}`, status: 'open' } };
    await gate;
    return { body: final };
  });
  const reader = await openSse(`${app.url}/execute`, {
    method: 'POST',
    headers: { ...(await app.walletBearer(sub)), 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'live', marketId: marketA, side: 'buy', ...body }),
  });
  const seen = await reader.take(3);
  expect(seen.map((m) => m.event)).toEqual(['accepted', 'quote', 'submitted']);
  return { reader, release };
}

/** A live venue_a order (an /execute body or a position sell) the execution service fills at once. */
async function filledLiveOrder(
  sub: string,
  path: string,
  body: Record<string, unknown>,
  fills: { price: number; size: number }[],
) {
  const id = `ex-${sub}-${path.length}-${fills.length}`;
  exec.handle(async (r) =>
    isOrderCall(r) ? { body: { id, status: 'open' } } : { body: { id, status: 'filled', fills } },
  );
  const r = await postStream(`${app.url}${path}`, body, await app.walletBearer(sub));
  if (r.events.at(-1)?.event !== 'completed')
    throw new Error(`not completed: ${JSON.stringify({ status: r.status, body: r.body, events: r.events })}`);
  return r;
}

describe('GET /api/positions?status=pending', () => {
  it('shows a pending position while a live buy is in flight; it opens on the fill', async () => {
    await fund(app, 'pam', 50);
    const { reader, release } = await gatedLiveOrder(
      'pam',
      { outcome: 'yes', size: 3 },
      { id: 'ex-pam', status: 'filled', fills: [{ price: 0.5, size: 3 }] },
    );
    const pending = await positions('pam', 'pending');
    expect(pending.total).toBe(1);
    expect(pending.data[0]).toMatchObject({
      status: 'pending',
      size: 0,
      venue: 'venue_a',
      marketId: marketA,
      outcome: 'yes',
    });
    expect((await positions('pam', 'open')).total).toBe(0);
    release();
    await app.services.get(ExecutionService).drain();
    reader.close();
    expect((await positions('pam', 'pending')).total).toBe(0);
    const open = await positions('pam', 'open');
    expect(open.data).toEqual([expect.objectContaining({ id: pending.data[0].id, status: 'open', size: 3 })]);
  });

  it('is removed when the order ends without fills', async () => {
    await fund(app, 'quin', 50);
    const { reader, release } = await gatedLiveOrder(
      'quin',
      { outcome: 'no', size: 2 },
      { id: 'ex-quin', status: 'cancelled', reason: 'no liquidity' },
    );
    expect((await positions('quin', 'pending')).data).toEqual([
      expect.objectContaining({ status: 'pending', outcome: 'no' }),
    ]);
    release();
    await app.services.get(ExecutionService).drain();
    reader.close();
    expect((await positions('quin')).total).toBe(0);
  });

  it(
    'a closed position turns pending for a new live buy and back to closed, its PnL kept, when nothing ' + 'fills',
    async () => {
      await fund(app, 'rory', 50);
      const bought = await filledLiveOrder(
        'rory',
        '/execute',
        { mode: 'live', marketId: marketA, side: 'buy', outcome: 'yes', size: 2 },
        [{ price: 0.5, size: 2 }],
      );
      const positionId = lastData(bought).position!.id;
      await filledLiveOrder('rory', `/api/positions/${positionId}/sell`, {}, [{ price: 0.55, size: 2 }]);
      const closed = (await positions('rory', 'closed')).data[0];
      expect(closed).toMatchObject({ id: positionId, status: 'closed' });
      const { reader, release } = await gatedLiveOrder(
        'rory',
        { outcome: 'yes', size: 1 },
        { id: 'ex-rory', status: 'rejected', reason: 'halted' },
      );
      expect((await positions('rory', 'pending')).data).toEqual([
        expect.objectContaining({ id: positionId, status: 'pending', size: 0 }),
      ]);
      release();
      await app.services.get(ExecutionService).drain();
      reader.close();
      expect((await positions('rory')).data).toEqual([
        expect.objectContaining({ id: positionId, status: 'closed', realizedPnl: closed.realizedPnl }),
      ]);
    },
  );

  it('an open position stays open while a live buy adds to it', async () => {
    await fund(app, 'sage', 50);
    await filledLiveOrder(
      'sage',
      '/execute',
      { mode: 'live', marketId: marketA, side: 'buy', outcome: 'no', size: 2 },
      [{ price: 0.5, size: 2 }],
    );
    const { reader, release } = await gatedLiveOrder(
      'sage',
      { outcome: 'no', size: 1 },
      { id: 'ex-sage', status: 'filled', fills: [{ price: 0.5, size: 1 }] },
    );
    expect((await positions('sage', 'pending')).total).toBe(0);
    expect((await positions('sage', 'open')).data).toEqual([expect.objectContaining({ status: 'open', size: 2 })]);
    release();
    await app.services.get(ExecutionService).drain();
    reader.close();
    expect((await positions('sage', 'open')).data).toEqual([expect.objectContaining({ status: 'open', size: 3 })]);
  });
});
