import { generateKeyPairSync } from 'node:crypto';
import {
  MarketBookStore,
  MarketKeeper,
  marketTopic,
  type BookSnapshot,
  type MarketUpdate,
} from '../../../src/modules/market-streams';
import { MARKETS_LIMITS } from '../../../src/modules/markets';
import { startTestApp, type TestApp } from '../../support/app';
import { startFakeVenues, type FakeVenues } from '../../support/fake-venues';
import { startFakeVenueStreams, type FakeVenueStreams } from '../../support/fake-venue-streams';
import { gql } from '../../support/graphql';
import { eventually, waitFor } from '../../support/wait';

const C25 = 'KXFEDDECISION-26DEC-C25';
const BTC_B = 'KXBTCMAXY-27JUN30-T150000';
const FED_A = '0x1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f801';
/** The least active venue_b market of the fixtures: not among the 3 followed. */
const GOVSHUT = 'KXGOVSHUT-26DEC31';

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });

/** The book as a market's updates build it, from its last snapshot on. */
function replay(updates: readonly MarketUpdate[]): { bids: Map<number, number>; asks: Map<number, number> } | null {
  let book: { bids: Map<number, number>; asks: Map<number, number> } | null = null;
  for (const u of updates) {
    if (u.kind === 'stale') book = null;
    if (u.kind === 'snapshot') book = { bids: new Map(), asks: new Map() };
    if (!book) continue;
    for (const [side, levels] of [
      [book.bids, u.bids],
      [book.asks, u.asks],
    ] as const) {
      for (const l of levels) {
        if (l.size > 0) side.set(l.price, l.size);
        else side.delete(l.price);
      }
    }
  }
  return book;
}
const asLevels = (m: Map<number, number>, desc: boolean) =>
  [...m].map(([price, size]) => ({ price, size })).sort((x, y) => (desc ? y.price - x.price : x.price - y.price));

describe('live venues: the books the streams keep', () => {
  let fake: FakeVenues;
  let streams: FakeVenueStreams;
  let app: TestApp;
  let store: MarketBookStore;
  const updates: MarketUpdate[] = [];

  beforeAll(async () => {
    fake = await startFakeVenues();
    streams = await startFakeVenueStreams(fake);
    streams.requireSignature(keys.publicKey.export({ type: 'spki', format: 'pem' }).toString());
    app = await startTestApp({
      ...fake.env,
      ...streams.env,
      VENUE_B_API_KEY_ID: 'key-1',
      VENUE_B_PRIVATE_KEY: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      VENUE_TRADES_POLL_MS: '3600000',
      // The 3 most active of each venue's markets are followed (and those a client watches).
      VENUE_STREAM_MARKETS: '3',
    });
    store = app.services.get(MarketBookStore);
    await app.services.infra.pubsub.subscribe<MarketUpdate>(marketTopic('venue_b', C25), (u) => updates.push(u));
    await waitFor(() => updates.some((u) => u.kind === 'snapshot'), 'the C25 book published');
  });
  afterAll(async () => {
    await app.close();
    await streams.close();
    await fake.close();
  });

  it("keeps a followed market's book as the venue says it; publishes each change once, with the next seq", async () => {
    const truth = await streams.book('venue_b', C25);
    const snap = (await store.snapshot('venue_b', C25)) as BookSnapshot;
    expect(snap).toMatchObject({ bids: truth.bids, asks: truth.asks, depth: 'book', source: 'stream' });
    expect(snap.bestBid).toBe(truth.bids[0].price);
    const before = updates.length;
    await streams.deltaB(C25, 'yes', 0.58, 25);
    await streams.deltaB(C25, 'no', 0.33, -600);
    const now = await streams.book('venue_b', C25);
    await waitFor(() => updates.slice(before).some((u) => u.asks.length > 0), 'the updates');
    // Changes that arrive in one turn go out as one update: each level at its new size (0: gone).
    const seen = updates.slice(before);
    expect(seen.every((u) => u.kind === 'delta' && u.depth === 'book')).toBe(true);
    expect(seen.flatMap((u) => u.bids)).toEqual([{ price: 0.58, size: 25 }]);
    expect(seen.flatMap((u) => u.asks)).toEqual([{ price: 0.67, size: 0 }]);
    expect(seen.map((u) => u.seq - seen[0].seq)).toEqual(seen.map((_, i) => i));
    expect(seen[0].seq).toBe(updates[before - 1].seq + 1);
    expect(seen[0].receivedAt).toBeGreaterThan(0);
    expect(await store.snapshot('venue_b', C25)).toMatchObject({
      bids: now.bids,
      asks: now.asks,
      seq: seen.at(-1)!.seq,
    });
  });

  it('after a sequence gap the book is stale, then a fresh snapshot (the next seq) makes it whole', async () => {
    const before = updates.length;
    await streams.deltaB(C25, 'yes', 0.57, 9, true);
    await streams.deltaB(C25, 'yes', 0.56, 4);
    await waitFor(() => updates.slice(before).some((u) => u.kind === 'snapshot'), 'the resync');
    const seen = updates.slice(before);
    expect(seen.map((u) => u.kind)).toEqual(['stale', 'snapshot']);
    expect(seen[0].reason).toMatch(/sequence gap/);
    expect(seen[1].seq).toBe(seen[0].seq + 1);
    const truth = await streams.book('venue_b', C25);
    const replayed = replay(updates)!;
    expect({ bids: asLevels(replayed.bids, true), asks: asLevels(replayed.asks, false) }).toEqual(truth);
    expect(await store.snapshot('venue_b', C25)).toMatchObject({ bids: truth.bids, asks: truth.asks });
  });

  it('a trade comes back on the market as its last price and a trade tick', async () => {
    const before = updates.length;
    const id = streams.trade('venue_b', { venueMarketId: C25, outcome: 'no', price: 0.38, size: 4 });
    await waitFor(() => updates.slice(before).some((u) => u.trades.length > 0), 'the tick');
    const u = updates.slice(before).find((x) => x.trades.length > 0)!;
    expect(u.trades).toEqual([expect.objectContaining({ id: `venue_b:${id}`, outcome: 'no', price: 0.38, size: 4 })]);
    expect(u.lastPrice).toBe(0.62);
  });

  it('orderBooks serves followed markets from the stream (no venue call) and the others from the venue', async () => {
    const reads = () => fake.requestsTo('kalshi', `/markets/${C25}/orderbook`).length;
    const before = reads();
    const query = `query($m: [MarketRefInput!]!) { orderBooks(markets: $m, depth: 2) {
      venue marketId source seq bids { price size } asks { price size } } }`;
    const r = await gql<{ orderBooks: ({ source: string; seq: number | null; bids: unknown[] } | null)[] }>(
      app,
      query,
      {
        m: [
          { venue: 'venue_b', marketId: C25 },
          { venue: 'venue_b', marketId: 'NO-SUCH-MARKET' },
          { venue: 'venue_a', marketId: FED_A },
          { venue: 'venue_b', marketId: GOVSHUT },
        ],
      },
    );
    expect(r.status).toBe(200);
    const [c25, missing, fed, govshut] = r.body.data!.orderBooks;
    const snap = (await store.snapshot('venue_b', C25, 2))!;
    expect(c25).toMatchObject({ source: 'stream', seq: snap.seq, bids: snap.bids });
    expect(reads()).toBe(before);
    expect(missing).toBeNull();
    expect(r.body.errors).toEqual([
      expect.objectContaining({ path: ['orderBooks', 1], extensions: expect.objectContaining({ code: 'not_found' }) }),
    ]);
    expect(fed).toMatchObject({ source: 'stream' });
    // Not followed: read from the venue (once per cache period however many ask).
    expect(govshut).toMatchObject({ source: 'venue', seq: null });
    expect(fake.requestsTo('kalshi', `/markets/${GOVSHUT}/orderbook`)).toHaveLength(1);
    const again = await gql<{ orderBooks: { source: string }[] }>(app, query, {
      m: [{ venue: 'venue_b', marketId: GOVSHUT }],
    });
    expect(again.body.data!.orderBooks[0].source).toBe('venue');
    expect(fake.requestsTo('kalshi', `/markets/${GOVSHUT}/orderbook`).length).toBeLessThanOrEqual(2);
  });

  it(`orderBooks takes at most ${MARKETS_LIMITS.orderBooks.max} markets: more is bad_request naming it`, async () => {
    const m = Array.from({ length: MARKETS_LIMITS.orderBooks.max + 1 }, () => ({ venue: 'venue_b', marketId: C25 }));
    const reads = fake.requests.length;
    const r = await gql(app, 'query($m: [MarketRefInput!]!) { orderBooks(markets: $m) { marketId } }', { m });
    expect(r.body.data).toBeNull();
    expect(r.body.errors).toEqual([
      expect.objectContaining({
        message: `markets: must list at most ${MARKETS_LIMITS.orderBooks.max} markets`,
        extensions: expect.objectContaining({ code: 'bad_request', field: 'markets' }),
      }),
    ]);
    const none = await gql(app, 'query { orderBooks(markets: []) { marketId } }');
    expect(none.body.errors?.[0]).toMatchObject({ message: 'markets: must list at least one market' });
    expect(fake.requests.length).toBe(reads);
  });

  it('a watched market is followed; a watched book the stream does not resend in time is read over HTTP', async () => {
    const keeper = app.services.get(MarketKeeper);
    expect(keeper.running).toBe(true);
    // Not among the most active: followed once a client watches it.
    expect(await store.snapshot('venue_b', BTC_B)).toBeNull();
    const release = store.hold('venue_b', BTC_B);
    try {
      await eventually(async () => (await store.snapshot('venue_b', BTC_B, undefined, true)) ?? undefined, 'the book');
      expect(await store.snapshot('venue_b', BTC_B)).toMatchObject(await streams.book('venue_b', BTC_B));
      streams.booksOnSubscribe(false);
      const fed: MarketUpdate[] = [];
      await app.services.infra.pubsub.subscribe<MarketUpdate>(marketTopic('venue_a', FED_A), (u) => fed.push(u));
      const release2 = store.hold('venue_a', FED_A);
      try {
        await eventually(async () => (await store.snapshot('venue_a', FED_A)) ?? undefined, 'the venue_a book');
        // Down, and kept down until the watched book has been read over HTTP: a book already stale when the
        // connection comes back has nothing to lose, so only a live one says `connected`.
        streams.refuse('venue_a', 1_000_000);
        streams.drop('venue_a');
        await waitFor(() => {
          const down = fed.findIndex((u) => u.kind === 'stale');
          return down >= 0 && fed.slice(down).some((u) => u.kind === 'snapshot');
        }, 'the book read over HTTP while the stream is down');
        streams.refuse('venue_a', 0);
        // Back on a connection that sends no books: after VENUE_STREAM_RESYNC_MS the watched book is read over HTTP
        // (through the venue's shared read cache: `source` says it came from a read, not from the stream).
        await waitFor(() => fed.some((u) => u.kind === 'stale' && u.reason === 'connected'), 'reconnected');
        const i = fed.findIndex((u) => u.kind === 'stale' && u.reason === 'connected');
        await waitFor(() => fed.slice(i).some((u) => u.kind === 'snapshot'), 'the book again');
        const snap = await store.snapshot('venue_a', FED_A);
        const truth = await streams.book('venue_a', FED_A);
        expect(snap).toMatchObject({ bids: truth.bids, asks: truth.asks, source: 'venue' });
      } finally {
        release2();
      }
    } finally {
      streams.booksOnSubscribe(true);
      release();
    }
  });
});

describe('orderBooks and the venue-read limit', () => {
  let fake: FakeVenues;
  let app: TestApp;
  beforeAll(async () => {
    fake = await startFakeVenues();
    app = await startTestApp({ ...fake.env, VENUE_READ_RATE_LIMIT: '4', VENUE_TRADES_POLL_MS: '3600000' });
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  it('counts each venue read of the query against the caller (the first with the field itself)', async () => {
    const m = [GOVSHUT, ...Array.from({ length: 6 }, (_, i) => `NO-SUCH-${i}`)].map((marketId) => ({
      venue: 'venue_b',
      marketId,
    }));
    const r = await gql<{ orderBooks: unknown[] }>(
      app,
      'query($m: [MarketRefInput!]!) { orderBooks(markets: $m) { marketId source } }',
      { m },
    );
    const codes = (r.body.errors ?? []).map((e) => e.extensions.code);
    // 7 reads, 4 allowed: the field's own and 3 more; the other 3 markets are refused before the venue is asked.
    expect(codes.filter((c) => c === 'rate_limited')).toHaveLength(3);
    expect(r.body.data!.orderBooks).toHaveLength(7);
    expect(fake.requestsTo('kalshi').filter((q) => q.path.endsWith('/orderbook'))).toHaveLength(4);
  });
});
