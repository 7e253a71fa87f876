import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createVenueAClient, VenueAStream, type StreamState, type VenueStreamEvent } from '../../../src/venues';
import { startFakeVenueStreams, type FakeVenueStreams } from '../../support/fake-venue-streams';
import { waitFor } from '../../support/wait';
import { capturingLogger, venuesConfig, withFakeVenues } from './live-clients.support';

// The fixtures' venue_a markets: condition id → [YES token, NO token].
const BTC = '0x3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a23';
const BTC_YES = '28730028390187623361117428359468452493633432108462262009637296012548391612001';
const BTC_NO = '28730028390187623361117428359468452493633432108462262009637296012548391612002';
const FED = '0x1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f801';
const FED_YES = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
const FED_NO = '52114319501245915516055106046884209969926127482827954674443846427813813222426';

interface Seen {
  events: VenueStreamEvent[];
  states: { state: StreamState; reason?: string }[];
  problems: string[];
}

function open(streams: FakeVenueStreams, pingMs = 1000, assetsPerConnection?: number) {
  const seen: Seen = { events: [], states: [], problems: [] };
  const stream = new VenueAStream({
    url: streams.venueAUrl,
    pingMs,
    maxBackoffMs: 100,
    random: () => 0.5,
    assetsPerConnection,
  });
  stream.start({
    event: (e) => seen.events.push(e),
    state: (state, reason) => seen.states.push({ state, reason }),
    problem: (text) => seen.problems.push(text),
  });
  return { stream, seen };
}

const books = (seen: Seen, id: string) =>
  seen.events.filter(
    (e): e is Extract<VenueStreamEvent, { kind: 'book' }> => e.kind === 'book' && e.venueMarketId === id,
  );

describe("venue_a's CLOB market channel", () => {
  const ctx = withFakeVenues();
  let streams: FakeVenueStreams;
  beforeAll(async () => {
    streams = await startFakeVenueStreams(ctx.fake);
  });
  afterAll(() => streams.close());

  it('subscribes by outcome token as documented, and turns books and price changes into the YES book', async () => {
    const { stream, seen } = open(streams);
    try {
      stream.follow([
        { venueMarketId: BTC, tokens: { yes: BTC_YES, no: BTC_NO } },
        { venueMarketId: FED, tokens: { yes: FED_YES, no: FED_NO } },
      ]);
      await waitFor(() => books(seen, BTC).length > 0 && books(seen, FED).length > 0, 'both books');
      const first = JSON.parse(streams.received.find((r) => r.venue === 'venue_a')!.text) as Record<string, unknown>;
      expect(first).toEqual({
        assets_ids: [BTC_YES, BTC_NO, FED_YES, FED_NO],
        type: 'market',
        custom_feature_enabled: true,
      });
      // Until its book came the market was not vouched for.
      expect(seen.events[0]).toMatchObject({ kind: 'stale', venueMarketIds: [BTC, FED] });
      const truth = await streams.book('venue_a', BTC);
      expect(books(seen, BTC)[0]).toMatchObject({ bids: truth.bids, asks: truth.asks });

      await streams.setLevelA(BTC, 'bids', 0.05, 321);
      await streams.setLevelA(BTC, 'asks', truth.asks[0].price, 0);
      await waitFor(() => seen.events.filter((e) => e.kind === 'levels').length === 2, 'two level changes');
      expect(seen.events.filter((e) => e.kind === 'levels')).toEqual([
        expect.objectContaining({ venueMarketId: BTC, changes: [{ side: 'bids', price: 0.05, size: 321 }] }),
        expect.objectContaining({
          venueMarketId: BTC,
          changes: [{ side: 'asks', price: truth.asks[0].price, size: 0 }],
        }),
      ]);
      expect(seen.states.map((s) => s.state)).toEqual(['connecting', 'up']);
    } finally {
      await stream.stop();
    }
  });

  it('prints a trade under the id the polled tape gives it (so the two are one trade), without a trader', async () => {
    const { stream, seen } = open(streams);
    const client = createVenueAClient(venuesConfig(ctx.fake), {
      rateLimiter: ctx.infra.rateLimiter,
      logger: capturingLogger().logger,
    });
    const polled: string[] = [];
    const off = client.onTrade((t) => polled.push(t.venueTradeId));
    try {
      await client.pollTradesOnce();
      stream.follow([{ venueMarketId: BTC, tokens: { yes: BTC_YES, no: BTC_NO } }]);
      await waitFor(() => books(seen, BTC).length > 0, 'the book');
      streams.trade('venue_a', {
        venueMarketId: BTC,
        outcome: 'no',
        side: 'sell',
        price: 0.27,
        size: 12.5,
        wallet: '0xAb',
      });
      await waitFor(() => seen.events.some((e) => e.kind === 'trade'), 'the print');
      await client.pollTradesOnce();
      const printed = seen.events.find((e) => e.kind === 'trade');
      expect(printed).toMatchObject({
        trade: {
          venue: 'venue_a',
          venueMarketId: BTC,
          outcome: 'no',
          side: 'sell',
          price: 0.27,
          size: 12.5,
          venueTraderId: null,
        },
      });
      expect(polled).toHaveLength(1);
      expect(printed?.kind === 'trade' && printed.trade.venueTradeId).toBe(polled[0]);
    } finally {
      off();
      await client.close();
      await stream.stop();
    }
  });

  it('reports a malformed frame, keeps the connection, beats; reconnects and resubscribes after a drop', async () => {
    const { stream, seen } = open(streams, 100);
    try {
      stream.follow([{ venueMarketId: BTC, tokens: { yes: BTC_YES, no: BTC_NO } }]);
      await waitFor(() => books(seen, BTC).length === 1, 'the book');
      streams.send('venue_a', '{"event_type": "book", "asset_id": ');
      streams.send(
        'venue_a',
        JSON.stringify({ event_type: 'price_change', market: BTC, price_changes: [{ asset_id: BTC_YES }] }),
      );
      await waitFor(() => seen.problems.length === 2, 'two problems');
      expect(seen.problems[0]).toMatch(/^not JSON/);
      expect(seen.problems[1]).toMatch(/price_change with a malformed entry/);
      await waitFor(() => streams.received.some((r) => r.text === 'PING'), 'a heartbeat');
      expect(streams.openConnections('venue_a')).toBe(1);

      const before = streams.received.filter((r) => r.text.includes('"type":"market"')).length;
      streams.refuse('venue_a', 2);
      streams.drop('venue_a');
      await waitFor(() => books(seen, BTC).length === 2, 'a fresh book after reconnecting');
      expect(streams.received.filter((r) => r.text.includes('"type":"market"')).length).toBe(before + 1);
      const states = seen.states.map((s) => s.state);
      expect(states.slice(-2)).toEqual(['connecting', 'up']);
      expect(states.filter((s) => s === 'down').length).toBeGreaterThanOrEqual(3);
      // Lost with the connection, vouched for again by the venue's book.
      const i = seen.events.findIndex((e) => e.kind === 'stale' && /closed|handshake|socket/.test(e.reason));
      expect(i).toBeGreaterThan(-1);
    } finally {
      await stream.stop();
    }
  });

  it('drops a connection that stays silent for three heartbeats', async () => {
    const { stream, seen } = open(streams, 100);
    try {
      stream.follow([{ venueMarketId: BTC, tokens: { yes: BTC_YES, no: BTC_NO } }]);
      await waitFor(() => books(seen, BTC).length === 1, 'the book');
      streams.silence('venue_a', true);
      await waitFor(() => seen.states.some((s) => s.state === 'down' && /silent/.test(s.reason ?? '')), 'dropped');
      streams.silence('venue_a', false);
      await waitFor(() => books(seen, BTC).length === 2, 'back with a fresh book');
    } finally {
      streams.silence('venue_a', false);
      await stream.stop();
    }
  });

  it('spreads tokens over connections and (un)subscribes a market on its open connection', async () => {
    const { stream, seen } = open(streams, 1000, 2);
    try {
      stream.follow([{ venueMarketId: BTC, tokens: { yes: BTC_YES, no: BTC_NO } }]);
      await waitFor(() => books(seen, BTC).length === 1, 'the first book');
      stream.follow([
        { venueMarketId: BTC, tokens: { yes: BTC_YES, no: BTC_NO } },
        { venueMarketId: FED, tokens: { yes: FED_YES, no: FED_NO } },
      ]);
      await waitFor(
        () => books(seen, FED).length === 1 && streams.openConnections('venue_a') === 2,
        'a second connection',
      );
      stream.follow([{ venueMarketId: FED, tokens: { yes: FED_YES, no: FED_NO } }]);
      await waitFor(() => streams.openConnections('venue_a') === 1, 'the emptied connection closed');
      expect([...streams.subscribedAssets()].sort()).toEqual([FED_NO, FED_YES].sort());
    } finally {
      await stream.stop();
    }
  });
});

describe("venue_a's recorded frames", () => {
  const ctx = withFakeVenues();
  let streams: FakeVenueStreams;
  beforeAll(async () => {
    streams = await startFakeVenueStreams(ctx.fake);
    streams.booksOnSubscribe(false);
  });
  afterAll(() => streams.close());

  it('reads every documented message shape (test/fixtures/venue-streams/venue-a-market-channel.json)', async () => {
    const { frames } = JSON.parse(
      readFileSync(path.join(__dirname, '../../fixtures/venue-streams/venue-a-market-channel.json'), 'utf8'),
    ) as { frames: { name: string; frame: Record<string, unknown> }[] };
    const frame = (name: string) => frames.find((f) => f.name === name)!.frame;
    const { stream, seen } = open(streams);
    try {
      stream.follow([{ venueMarketId: FED, tokens: { yes: FED_YES, no: FED_NO } }]);
      await waitFor(() => streams.subscribedAssets().has(FED_YES), 'subscribed');
      const from = seen.events.length;
      // One frame may carry several messages.
      streams.send('venue_a', JSON.stringify([frame('book'), frame('tick_size_change')]));
      for (const name of [
        'price_change',
        'price_change (earlier shape)',
        'last_trade_price',
        'best_bid_ask',
        'new_market',
      ])
        streams.send('venue_a', JSON.stringify(frame(name)));
      await waitFor(() => seen.events.length - from === 6, 'six events');
      expect(seen.problems).toEqual([]);
      expect(seen.events.slice(from)).toEqual([
        {
          kind: 'book',
          venueMarketId: FED,
          bids: [
            { price: 0.5, size: 15 },
            { price: 0.49, size: 20 },
            { price: 0.48, size: 30 },
          ],
          asks: [
            { price: 0.52, size: 25 },
            { price: 0.53, size: 60 },
            { price: 0.54, size: 10 },
          ],
          at: 1757908892351,
          tickSize: 0.01,
        },
        { kind: 'tick', venueMarketId: FED, tickSize: 0.001, at: 1757908892351 },
        // The NO token's change is the YES book's mirror: only the YES token's is used.
        { kind: 'levels', venueMarketId: FED, changes: [{ side: 'bids', price: 0.5, size: 200 }], at: 1757908892351 },
        { kind: 'levels', venueMarketId: FED, changes: [{ side: 'asks', price: 0.53, size: 0 }], at: 1729084877448 },
        {
          kind: 'trade',
          trade: {
            venue: 'venue_a',
            venueTradeId: `0xeeefff0001:${FED_NO}:BUY`,
            venueMarketId: FED,
            venueTraderId: null,
            side: 'buy',
            outcome: 'no',
            price: 0.456,
            size: 219.22,
            filledAt: new Date(1750428146322),
          },
        },
        { kind: 'quote', venueMarketId: FED, bestBid: 0.5, bestAsk: 0.52, at: 1757908892351 },
      ]);
    } finally {
      await stream.stop();
    }
  });
});
