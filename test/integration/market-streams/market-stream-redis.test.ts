import { MarketFollowers, MarketKeeper, marketTopic } from '../../../src/modules/market-streams';
import { startTestApp, type TestApp } from '../../support/app';
import { startFakeVenues, type FakeVenues } from '../../support/fake-venues';
import { startFakeVenueStreams, type FakeVenueStreams } from '../../support/fake-venue-streams';
import { openSse, type SseReader } from '../../support/sse';
import { waitFor } from '../../support/wait';

// Two processes of one deployment share Redis: one holds the venue streams, the other serves clients.
const describeRedis = process.env.REDIS_URL ? describe : describe.skip;

const FED_A = '0x1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f801';

describeRedis('market streams out of a process that does not hold the venue streams (Redis)', () => {
  let fake: FakeVenues;
  let streams: FakeVenueStreams;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    fake = await startFakeVenues();
    streams = await startFakeVenueStreams(fake);
    const env = { ...fake.env, ...streams.env, VENUE_TRADES_POLL_MS: '3600000', LEASE_TTL_MS: '1000' };
    a = await startTestApp(env);
    b = await startTestApp(env, {}, { shareWith: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await streams.close();
    await fake.close();
  });

  it('snapshot from the shared copy, then the holder’s updates in seq order; one subscription for all', async () => {
    await waitFor(() => a.services.get(MarketKeeper).running || b.services.get(MarketKeeper).running, 'a holder');
    const other = a.services.get(MarketKeeper).running ? b : a;
    const clients: SseReader[] = [];
    try {
      for (let i = 0; i < 5; i += 1)
        clients.push(await openSse(`${other.url}/stream/markets/venue_a/${FED_A}?depth=3`));
      const firsts = await Promise.all(
        clients.map(async (c) => JSON.parse((await c.take(1))[0].data) as Record<string, unknown>),
      );
      const truth = await streams.book('venue_a', FED_A);
      for (const f of firsts) expect(f).toMatchObject({ kind: 'snapshot', bids: truth.bids.slice(0, 3) });
      expect(other.services.get(MarketFollowers).markets).toBe(1);
      expect(other.services.infra.pubsub.listenerCount(marketTopic('venue_a', FED_A))).toBe(1);
      const level = truth.bids[0].price;
      await streams.setLevelA(FED_A, 'bids', level, 4242);
      for (const c of clients) {
        const item = JSON.parse((await c.take(1))[0].data) as Record<string, unknown>;
        expect(item).toMatchObject({
          kind: 'delta',
          seq: (firsts[0].seq as number) + 1,
          bids: [{ price: level, size: 4242 }],
        });
      }
    } finally {
      clients.forEach((c) => c.close());
    }
  });
});
