import { MarketBookStore, MarketKeeper, VenueStreamStatus } from '../../../src/modules/market-streams';
import { startTestApp, type TestApp } from '../../support/app';
import { startFakeVenues, type FakeVenues } from '../../support/fake-venues';
import { startFakeVenueStreams, type FakeVenueStreams } from '../../support/fake-venue-streams';
import { openSse } from '../../support/sse';
import { eventually, waitFor } from '../../support/wait';

// Two processes of one deployment share Redis (leases, pub/sub, the books' shared copies).
const describeRedis = process.env.REDIS_URL ? describe : describe.skip;

const NYC = 'KXHIGHNY-26DEC01-T50';
const FED_A = '0x1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f801';

describeRedis('venue streams across processes (Redis)', () => {
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
    // The second app shares the first's database: it closes first.
    await b?.close();
    await a?.close();
    await streams.close();
    await fake.close();
  });

  it('one process holds the venue connections; the other serves books and live trades through Redis', async () => {
    const [holder, other] = a.services.get(MarketKeeper).running ? [a, b] : [b, a];
    expect(other.services.get(MarketKeeper).running).toBe(false);
    await waitFor(
      () => streams.openConnections('venue_a') === 1 && streams.openConnections('venue_b') === 1,
      'one set',
    );
    expect(streams.handshakes.filter((h) => h.venue === 'venue_b')).toHaveLength(1);

    // The other process hears where the data comes from, and reads the holder's books without a venue call.
    await waitFor(() => other.services.get(VenueStreamStatus).tradesStreamed('venue_b'), 'the status heard');
    const truth = await streams.book('venue_a', FED_A);
    const reads = fake.requestsTo('clob', '/book').length;
    const snap = await eventually(
      async () => (await other.services.get(MarketBookStore).snapshot('venue_a', FED_A, 2)) ?? undefined,
      'the shared copy',
    );
    expect(snap).toMatchObject({ bids: truth.bids.slice(0, 2), asks: truth.asks.slice(0, 2), source: 'stream' });
    expect(fake.requestsTo('clob', '/book').length).toBe(reads);

    // A venue trade on the holder's connection reaches a client of the other process, once.
    const sse = await openSse(`${other.url}/stream/trades`);
    try {
      const id = streams.trade('venue_b', { venueMarketId: NYC, outcome: 'yes', price: 0.5, size: 1 });
      const [m] = await sse.take(1);
      expect(JSON.parse(m.data)).toMatchObject({ id: `venue_b:${id}` });
    } finally {
      sse.close();
    }

    // The holder gives the streams up (as when it stops): the other takes the lease and opens the connections.
    await holder.services.leases.release('ingestion:venue streams');
    expect(holder.services.get(MarketKeeper).running).toBe(false);
    const survivor = other;
    await waitFor(() => survivor.services.get(MarketKeeper).running, 'the lease taken over', 20_000);
    await waitFor(() => streams.openConnections('venue_b') === 1, 'the connections reopened');
    expect(streams.handshakes.filter((h) => h.venue === 'venue_b')).toHaveLength(2);
  });
});
