import { startTestApp, type TestApp } from '../../support/app';
import { lastData, postStream } from '../../support/execution-stream';
import { itOnPostgres } from '../../support/modes';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { openAccountStream, shapes, takeThrough } from './account-support';

/**
 * Two instances of one deployment (one PostgreSQL database, one Redis): a change committed by
 * one reaches the account stream a client holds on the other.
 */
const pinned = pinnedWorld();
const marketA = activeMatchedEvent(pinned.world).markets[0].venueMarketIds.venue_a!;
const withRedis = Boolean(process.env.REDIS_URL);
let a: TestApp | undefined;
let b: TestApp | undefined;
beforeAll(async () => {
  if (!process.env.DATABASE_URL || !withRedis) return;
  a = await startTestApp({}, {}, pinned);
  b = await startTestApp({}, {}, { shareWith: a });
});
afterAll(async () => {
  // The second instance shares the first's database: it closes first.
  await b?.close();
  await a?.close();
});

(withRedis ? itOnPostgres : it.skip)(
  'an order committed by one instance reaches a subscriber of the other',
  async () => {
    const sse = await openAccountStream(b!, 'pia');
    try {
      const r = await postStream(
        `${a!.url}/execute`,
        { marketId: marketA, side: 'buy', outcome: 'yes', size: 2, mode: 'simulation' },
        await a!.bearer('pia'),
      );
      const got = await takeThrough(sse, 'balance');
      expect(shapes(got)).toEqual([
        'order:filled',
        ...got.filter((u) => u.kind === 'fill').map(() => 'fill'),
        'position',
        'balance',
      ]);
      expect(got[0].order).toMatchObject({ id: lastData(r).orderId, mode: 'simulation' });
    } finally {
      sse.close();
    }
  },
);
