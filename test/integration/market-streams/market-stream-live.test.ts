import { generateKeyPairSync } from 'node:crypto';
import { createClient } from 'graphql-sse';
import { MarketFollowers, MarketKeeper } from '../../../src/modules/market-streams';
import { startTestApp, type TestApp } from '../../support/app';
import { startFakeVenues, type FakeVenues } from '../../support/fake-venues';
import { startFakeVenueStreams, type FakeVenueStreams } from '../../support/fake-venue-streams';
import { openSse, type SseReader } from '../../support/sse';
import { waitFor } from '../../support/wait';

const C25 = 'KXFEDDECISION-26DEC-C25';
const FED_A = '0x1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f801';
/** Not among the 3 most active venue_b markets: followed only once a client watches it. */
const BTC_B = 'KXBTCMAXY-27JUN30-T150000';

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });

interface Item {
  id: string;
  marketId: string;
  seq: number;
  kind: string;
  bids: { price: number; size: number }[];
  asks: { price: number; size: number }[];
  bestBid: number | null;
  lastPrice: number | null;
  trades: { id: string; price: number }[];
  reason: string | null;
}
const parse = (m: { data: string }) => JSON.parse(m.data) as Item;

describe('market streams out, from live venues (local websocket fakes)', () => {
  let fake: FakeVenues;
  let streams: FakeVenueStreams;
  let app: TestApp;
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
      VENUE_STREAM_MARKETS: '3',
    });
    await app.services.get(MarketKeeper).settled();
  });
  afterAll(async () => {
    await app.close();
    await streams.close();
    await fake.close();
  });

  it("SSE: the venue's book to `depth`, its deltas in seq order, a trade, a fresh snapshot after a gap", async () => {
    const sse = await openSse(`${app.url}/stream/markets/venue_b/${C25}?depth=2`);
    try {
      const [first] = await sse.take(1);
      expect(first.event).toBe('snapshot');
      const snap = parse(first);
      const truth = await streams.book('venue_b', C25);
      expect(snap).toMatchObject({ bids: truth.bids.slice(0, 2), asks: truth.asks.slice(0, 2) });
      expect(snap.bestBid).toBe(truth.bids[0].price);

      // A new best bid: within the top 2, so the client hears the new level and the one pushed out (size 0).
      const top = truth.bids[0].price;
      const better = Math.round((top + 0.01) * 100) / 100;
      await streams.deltaB(C25, 'yes', better, 7);
      const [d] = await sse.take(1);
      const delta = parse(d);
      expect(delta).toMatchObject({ kind: 'delta', seq: snap.seq + 1, bestBid: better });
      expect(delta.bids).toEqual(
        expect.arrayContaining([
          { price: better, size: 7 },
          { price: truth.bids[1].price, size: 0 },
        ]),
      );
      expect(d.id).toBe(`venue_b:${C25}:${delta.seq}`);

      // A trade: the market's last price and a tick.
      const tradeId = streams.trade('venue_b', { venueMarketId: C25, outcome: 'yes', price: 0.41, size: 2 });
      const [t] = await sse.take(1);
      expect(parse(t)).toMatchObject({ kind: 'delta', seq: delta.seq + 1, lastPrice: 0.41 });
      expect(parse(t).trades).toEqual([expect.objectContaining({ id: `venue_b:${tradeId}`, price: 0.41 })]);

      // The venue's stream skips a seq: the book is stale, then the venue's snapshot makes it whole.
      await streams.deltaB(C25, 'yes', 0.2, 5, true);
      await streams.deltaB(C25, 'yes', 0.21, 5);
      const [stale, again] = (await sse.take(2)).map(parse);
      expect(stale).toMatchObject({ kind: 'stale', bids: [], reason: expect.stringMatching(/sequence gap/) });
      expect(again).toMatchObject({ kind: 'snapshot', seq: stale.seq + 1 });
      const now = await streams.book('venue_b', C25);
      expect(again.bids).toEqual(now.bids.slice(0, 2));
    } finally {
      sse.close();
    }
  });

  it('GraphQL: venue_a levels as they change; a market nobody followed is followed for its client', async () => {
    const client = createClient({ url: `${app.url}/graphql/stream`, retryAttempts: 0 });
    const got: Item[] = [];
    const errors: unknown[] = [];
    const stop = client.subscribe<{ marketUpdates: Item }>(
      {
        query: `subscription($m: [MarketRefInput!]!) { marketUpdates(markets: $m, depth: 3) {
          id marketId seq kind bids { price size } asks { price size } bestBid lastPrice
          trades { id price } reason } }`,
        variables: {
          m: [
            { venue: 'venue_a', marketId: FED_A },
            { venue: 'venue_b', marketId: BTC_B },
          ],
        },
      },
      { next: (r) => r.data && got.push(r.data.marketUpdates), error: (e) => errors.push(e), complete: () => {} },
    );
    try {
      await waitFor(() => got.filter((i) => i.kind === 'snapshot').length >= 2 || errors.length > 0, 'both books');
      expect(errors).toEqual([]);
      const btc = got.find((i) => i.marketId === BTC_B)!;
      expect(btc.bids).toEqual((await streams.book('venue_b', BTC_B)).bids.slice(0, 3));
      const fed = got.find((i) => i.marketId === FED_A && i.kind === 'snapshot')!;
      const level = fed.bids[0].price;
      await streams.setLevelA(FED_A, 'bids', level, 999);
      await waitFor(() => got.some((i) => i.marketId === FED_A && i.seq === fed.seq + 1), 'the venue_a change');
      const next = got.find((i) => i.marketId === FED_A && i.seq === fed.seq + 1)!;
      expect(next).toMatchObject({ kind: 'delta', bids: [{ price: level, size: 999 }] });
    } finally {
      stop();
      client.dispose();
    }
  });

  it('one pub/sub subscription per market, whatever the number of clients', async () => {
    const followers = app.services.get(MarketFollowers);
    await waitFor(() => followers.markets === 0, 'the earlier clients gone');
    const clients: SseReader[] = [];
    try {
      for (let i = 0; i < 10; i += 1) {
        clients.push(await openSse(`${app.url}/stream/markets/venue_b/${C25}?depth=${1 + (i % 3)}`));
      }
      for (const c of clients) expect((await c.take(1))[0].event).toBe('snapshot');
      expect(followers.markets).toBe(1);
      expect(app.services.infra.pubsub.listenerCount(`market-updates#venue_b#${C25}`)).toBe(1);
      await streams.deltaB(C25, 'no', 0.5, 3);
      for (const c of clients) expect((await c.take(1))[0].event).toBe('delta');
    } finally {
      clients.forEach((c) => c.close());
    }
  });
});
