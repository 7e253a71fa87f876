import { TradeIngestService } from '../../../src/modules/ingestion';
import {
  MarketBookStore,
  MarketKeeper,
  marketTopic,
  VenueStreamStatus,
  type MarketUpdate,
} from '../../../src/modules/market-streams';
import { SimVenueStream, type StreamState, type VenueStreamEvent } from '../../../src/venues';
import { startTestApp, type TestApp } from '../../support/app';
import { pinnedWorld, type PinnedWorld } from '../../support/pinned-world';
import { waitFor } from '../../support/wait';

/** An active venue_b market of the pinned world, by the catalog. */
async function activeMarket(app: TestApp, venue: 'venue_a' | 'venue_b'): Promise<string> {
  const m = await app.services.db.prisma.market.findFirst({
    where: { venue, status: 'active' },
    orderBy: { venueMarketId: 'asc' },
  });
  return m!.venueMarketId;
}

describe('the simulated world streams what a venue would', () => {
  let pinned: PinnedWorld;
  let app: TestApp;
  beforeAll(async () => {
    pinned = pinnedWorld();
    app = await startTestApp({}, {}, pinned);
    await app.services.get(MarketKeeper).settled();
  });
  afterAll(() => app.close());

  it("keeps the world's books (no venue call), says so in /health, publishes its book moves and trades", async () => {
    expect(app.services.get(VenueStreamStatus).view()).toEqual([
      expect.objectContaining({ venue: 'venue_a', source: 'sim', state: 'up', trades: 'stream', books: 'stream' }),
      expect.objectContaining({ venue: 'venue_b', source: 'sim', state: 'up', trades: 'stream', books: 'stream' }),
    ]);
    const id = await activeMarket(app, 'venue_b');
    const store = app.services.get(MarketBookStore);
    const world = await pinned.world.clients.venue_b.getOrderBook(id);
    expect(await store.snapshot('venue_b', id)).toMatchObject({ bids: world.bids, asks: world.asks, source: 'stream' });

    const updates: MarketUpdate[] = [];
    await app.services.infra.pubsub.subscribe<MarketUpdate>(marketTopic('venue_b', id), (u) => updates.push(u));
    // The world's book moves with its clock (a new book every 15 s): the stream says which levels changed.
    pinned.clock.ms += 15_000;
    const keeper = app.services.get(MarketKeeper) as unknown as { runs: Map<string, { stream: SimVenueStream }> };
    await keeper.runs.get('venue_b')!.stream.tick();
    await waitFor(() => updates.length > 0, 'the move');
    const moved = await pinned.world.clients.venue_b.getOrderBook(id);
    expect(moved).not.toEqual(world);
    expect(updates[0]).toMatchObject({ kind: 'delta', depth: 'book' });
    const book = new Map<string, number>([
      ...world.bids.map((l) => [`b${l.price}`, l.size] as [string, number]),
      ...world.asks.map((l) => [`a${l.price}`, l.size] as [string, number]),
    ]);
    for (const l of updates[0].bids) book.set(`b${l.price}`, l.size);
    for (const l of updates[0].asks) book.set(`a${l.price}`, l.size);
    const after = [...book].filter(([, size]) => size > 0);
    expect(after.sort()).toEqual(
      [
        ...moved.bids.map((l) => [`b${l.price}`, l.size] as [string, number]),
        ...moved.asks.map((l) => [`a${l.price}`, l.size] as [string, number]),
      ].sort(),
    );

    // A trade of the world, stored by the ingestion, comes back as the market's trade tick and last price.
    const ingest = app.services.get(TradeIngestService);
    ingest.enqueue({
      venue: 'venue_b',
      venueTradeId: 'sim-stream-test-1',
      venueMarketId: id,
      venueTraderId: null,
      side: 'buy',
      outcome: 'yes',
      price: 0.37,
      size: 3,
      filledAt: new Date(pinned.clock.ms),
    });
    await waitFor(() => updates.some((u) => u.trades.length > 0), 'the trade');
    const withTrade = updates.find((u) => u.trades.length > 0)!;
    expect(withTrade).toMatchObject({
      lastPrice: 0.37,
      trades: [{ id: 'venue_b:sim-stream-test-1', price: 0.37, size: 3 }],
    });
    expect(withTrade.seq).toBe(updates[0].seq + 1);
  });
});

describe('the simulated stream on its own', () => {
  it("sends a followed market's book, the next one when the world moves, and goes down with the venue", async () => {
    const pinned = pinnedWorld();
    const app = await startTestApp({ VENUE_STREAMS: 'off' }, {}, pinned);
    try {
      expect(app.services.get(VenueStreamStatus).view()[1]).toMatchObject({ state: 'off', trades: 'polling' });
      const id = await activeMarket(app, 'venue_b');
      const events: VenueStreamEvent[] = [];
      const states: StreamState[] = [];
      const stream = new SimVenueStream('venue_b', pinned.world.clients.venue_b, pinned.now);
      stream.start({ event: (e) => events.push(e), state: (s) => states.push(s) });
      stream.follow([{ venueMarketId: id }]);
      await stream.settled();
      expect(events.map((e) => e.kind)).toEqual(['stale', 'book']);
      pinned.world.setVenueDown('venue_b', true);
      await stream.tick();
      expect(states).toEqual(['up', 'down']);
      expect(events.at(-1)).toMatchObject({ kind: 'stale', venueMarketIds: [id] });
      pinned.world.setVenueDown('venue_b', false);
      pinned.clock.ms += 15_000;
      await stream.tick();
      expect(states).toEqual(['up', 'down', 'up']);
      const book = events.at(-1);
      expect(book).toMatchObject({ kind: 'book', venueMarketId: id });
      const now = await pinned.world.clients.venue_b.getOrderBook(id);
      expect(book?.kind === 'book' && book.bids).toEqual(now.bids);
      await stream.stop();
    } finally {
      await app.close();
    }
  });
});
