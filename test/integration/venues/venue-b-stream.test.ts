import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import {
  createVenueBClient,
  VenueBStream,
  type BookLevel,
  type StreamState,
  type VenueStreamEvent,
} from '../../../src/venues';
import { venueBCredentials } from '../../../src/venues/live';
import { startFakeVenueStreams, type FakeVenueStreams } from '../../support/fake-venue-streams';
import { waitFor } from '../../support/wait';
import { capturingLogger, venuesConfig, withFakeVenues } from './live-clients.support';

const C25 = 'KXFEDDECISION-26DEC-C25';
const BTC = 'KXBTCMAXY-27JUN30-T150000';
const NYC = 'KXHIGHNY-26DEC01-T50';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PUBLIC_PEM = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const PRIVATE_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

interface Seen {
  events: VenueStreamEvent[];
  states: { state: StreamState; reason?: string }[];
  problems: string[];
}

/** A key pair the venue does not know. */
const STRANGER_PEM = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

function open(streams: FakeVenueStreams, signed: boolean | 'by a stranger') {
  const seen: Seen = { events: [], states: [], problems: [] };
  const stream = new VenueBStream({
    url: streams.venueBUrl,
    pingMs: 1000,
    maxBackoffMs: 100,
    random: () => 0.5,
    credentials: signed ? venueBCredentials('key-1', signed === true ? PRIVATE_PEM : STRANGER_PEM) : undefined,
  });
  stream.start({
    event: (e) => seen.events.push(e),
    state: (state, reason) => seen.states.push({ state, reason }),
    problem: (text) => seen.problems.push(text),
  });
  return { stream, seen };
}

/** The YES book as the events tell it: the last `book` of the market with the `levels` after it applied. */
function bookFrom(seen: Seen, id: string): { bids: BookLevel[]; asks: BookLevel[] } | null {
  let bids: Map<number, number> | null = null;
  let asks: Map<number, number> | null = null;
  for (const e of seen.events) {
    if (e.kind === 'stale' && e.venueMarketIds.includes(id)) bids = asks = null;
    if (e.kind === 'book' && e.venueMarketId === id) {
      bids = new Map(e.bids.map((l) => [l.price, l.size]));
      asks = new Map(e.asks.map((l) => [l.price, l.size]));
    }
    if (e.kind === 'levels' && e.venueMarketId === id && bids && asks) {
      for (const c of e.changes) {
        const side = c.side === 'bids' ? bids : asks;
        if (c.size > 0) side.set(c.price, c.size);
        else side.delete(c.price);
      }
    }
  }
  if (!bids || !asks) return null;
  const sorted = (m: Map<number, number>, desc: boolean) =>
    [...m].map(([price, size]) => ({ price, size })).sort((x, y) => (desc ? y.price - x.price : x.price - y.price));
  return { bids: sorted(bids, true), asks: sorted(asks, false) };
}

describe("venue_b's trade API websocket", () => {
  const ctx = withFakeVenues();
  let streams: FakeVenueStreams;
  beforeAll(async () => {
    streams = await startFakeVenueStreams(ctx.fake);
  });
  afterEach(() => streams.requireSignature(null));
  afterAll(() => streams.close());

  it('signs its handshake, subscribes trades everywhere and books and tickers of the followed markets', async () => {
    streams.requireSignature(PUBLIC_PEM);
    const { stream, seen } = open(streams, true);
    try {
      stream.follow([{ venueMarketId: C25 }, { venueMarketId: BTC }]);
      await waitFor(() => bookFrom(seen, C25) !== null && bookFrom(seen, BTC) !== null, 'both snapshots');
      const hs = streams.handshakes.at(-1)!;
      expect(hs.headers['kalshi-access-key']).toBe('key-1');
      expect(hs.headers['kalshi-access-signature']).toEqual(expect.any(String));
      const commands = streams.received.filter((r) => r.venue === 'venue_b').map((r) => JSON.parse(r.text));
      expect(commands).toEqual([
        { id: 1, cmd: 'subscribe', params: { channels: ['trade'] } },
        {
          id: 2,
          cmd: 'subscribe',
          params: { channels: ['ticker'], market_tickers: [C25, BTC], send_initial_snapshot: true },
        },
        { id: 3, cmd: 'subscribe', params: { channels: ['orderbook_delta'], market_tickers: [C25, BTC] } },
      ]);
      expect(streams.subscribedTickers('trade')).toEqual(new Set(['*']));
      expect(bookFrom(seen, C25)).toEqual(await streams.book('venue_b', C25));
      // The fixed-point book (fractional counts) and a NO bid turned into a YES ask.
      expect(bookFrom(seen, BTC)).toEqual(await streams.book('venue_b', BTC));

      await streams.deltaB(C25, 'yes', 0.56, 10);
      await streams.deltaB(C25, 'no', 0.38, -40);
      await streams.deltaB(C25, 'yes', 0.55, -150.5);
      await waitFor(() => seen.events.filter((e) => e.kind === 'levels').length === 3, 'three deltas');
      expect(bookFrom(seen, C25)).toEqual(await streams.book('venue_b', C25));

      stream.follow([{ venueMarketId: C25 }, { venueMarketId: BTC }, { venueMarketId: NYC }]);
      await waitFor(() => bookFrom(seen, NYC) !== null, 'a snapshot of the added market');
      expect(streams.subscribedTickers('orderbook_delta')).toEqual(new Set([C25, BTC, NYC]));
    } finally {
      await stream.stop();
    }
  });

  it('resyncs a book after a sequence gap from a fresh snapshot, not from deltas it missed', async () => {
    streams.requireSignature(PUBLIC_PEM);
    const { stream, seen } = open(streams, true);
    try {
      stream.follow([{ venueMarketId: C25 }]);
      await waitFor(() => bookFrom(seen, C25) !== null, 'the snapshot');
      const snapshots = () => seen.events.filter((e) => e.kind === 'book').length;
      await streams.deltaB(C25, 'yes', 0.59, 30, true); // lost on the way: its seq is used
      expect(bookFrom(seen, C25)).not.toEqual(await streams.book('venue_b', C25));
      await streams.deltaB(C25, 'yes', 0.6, 5);
      await waitFor(() => snapshots() === 2, 'a fresh snapshot');
      expect(seen.events.find((e) => e.kind === 'stale' && /sequence gap/.test(e.reason))).toBeDefined();
      expect(bookFrom(seen, C25)).toEqual(await streams.book('venue_b', C25));
      const commands = streams.received.filter((r) => r.venue === 'venue_b').map((r) => JSON.parse(r.text));
      expect(commands.slice(-2)).toEqual([
        { id: expect.any(Number), cmd: 'unsubscribe', params: { sids: [expect.any(Number)] } },
        { id: expect.any(Number), cmd: 'subscribe', params: { channels: ['orderbook_delta'], market_tickers: [C25] } },
      ]);
      // Later deltas apply on the fresh book.
      await streams.deltaB(C25, 'no', 0.37, 1);
      await waitFor(() => seen.events.at(-1)?.kind === 'levels', 'the next delta');
      expect(bookFrom(seen, C25)).toEqual(await streams.book('venue_b', C25));
    } finally {
      await stream.stop();
    }
  });

  it("without the key pair: public channels only; trades carry the REST tape's id; tickers are quotes", async () => {
    streams.requireSignature(PUBLIC_PEM);
    const { stream, seen } = open(streams, false);
    const client = createVenueBClient(venuesConfig(ctx.fake), {
      rateLimiter: ctx.infra.rateLimiter,
      logger: capturingLogger().logger,
    });
    const polled: string[] = [];
    const off = client.onTrade((t) => polled.push(t.venueTradeId));
    try {
      expect(stream.coverage).toEqual({ books: false, allTrades: true });
      stream.follow([{ venueMarketId: C25 }]);
      await waitFor(() => streams.subscribedTickers('ticker').has(C25), 'the ticker subscription');
      expect(streams.handshakes.at(-1)!.headers['kalshi-access-signature']).toBeUndefined();
      expect(streams.subscribedTickers('orderbook_delta').size).toBe(0);
      await client.pollTradesOnce();
      const id = streams.trade('venue_b', { venueMarketId: NYC, outcome: 'no', price: 0.43, size: 7 });
      streams.tickerB(C25, { price_dollars: '0.6100', yes_bid_dollars: '0.6000', yes_ask_dollars: '0.6200', ts: 1 });
      await waitFor(() => seen.events.some((e) => e.kind === 'quote'), 'the quote');
      await client.pollTradesOnce();
      expect(seen.events.find((e) => e.kind === 'trade')).toMatchObject({
        trade: {
          venueTradeId: id,
          venueMarketId: NYC,
          side: 'buy',
          outcome: 'no',
          price: 0.43,
          size: 7,
          venueTraderId: null,
        },
      });
      expect(polled).toEqual([id]);
      expect(seen.events.find((e) => e.kind === 'quote')).toMatchObject({
        venueMarketId: C25,
        bestBid: 0.6,
        bestAsk: 0.62,
        lastPrice: 0.61,
      });
    } finally {
      off();
      await client.close();
      await stream.stop();
    }
  });

  it('reports what the venue refuses and malformed frames; a trade sequence gap asks for a catch-up', async () => {
    streams.requireSignature(PUBLIC_PEM);
    const { stream, seen } = open(streams, 'by a stranger');
    try {
      // A connection the venue does not authenticate asking for books is told so by the venue.
      stream.follow([{ venueMarketId: C25 }]);
      await waitFor(() => seen.problems.some((p) => /venue error 9: Authentication required/.test(p)), 'the refusal');
      streams.send('venue_b', 'not json');
      streams.send('venue_b', JSON.stringify({ type: 'orderbook_delta', sid: 99, seq: 1, msg: {} }));
      await waitFor(() => seen.problems.length >= 3, 'the malformed frames');
      expect(seen.problems).toEqual(
        expect.arrayContaining([expect.stringMatching(/^not JSON/), 'orderbook_delta without market_ticker']),
      );
      streams.trade('venue_b', { venueMarketId: NYC, outcome: 'yes', price: 0.5, size: 1 });
      await waitFor(() => seen.events.some((e) => e.kind === 'trade'), 'a trade');
      // The venue's next trade message comes with a seq two ahead: one was lost.
      streams.trade('venue_b', { venueMarketId: NYC, outcome: 'yes', price: 0.5, size: 1 }, { tape: true });
      streams.send(
        'venue_b',
        JSON.stringify({
          type: 'trade',
          sid: 1,
          seq: 99,
          msg: {
            trade_id: 'x',
            market_ticker: NYC,
            yes_price_dollars: '0.5',
            count_fp: '1.00',
            taker_side: 'yes',
            ts: 1,
          },
        }),
      );
      await waitFor(() => seen.events.some((e) => e.kind === 'trade-gap'), 'the gap');
      expect(streams.openConnections('venue_b')).toBe(1);
    } finally {
      await stream.stop();
    }
  });

  it('reconnects after a dropped connection, resubscribes, and the books come back', async () => {
    streams.requireSignature(PUBLIC_PEM);
    const { stream, seen } = open(streams, true);
    try {
      stream.follow([{ venueMarketId: C25 }]);
      await waitFor(() => bookFrom(seen, C25) !== null, 'the snapshot');
      streams.refuse('venue_b', 1);
      streams.drop('venue_b');
      await waitFor(() => bookFrom(seen, C25) === null, 'the book lost with the connection');
      await waitFor(() => bookFrom(seen, C25) !== null, 'the book back');
      expect(seen.states.map((s) => s.state)).toEqual([
        'connecting',
        'up',
        'down',
        'connecting',
        'down',
        'connecting',
        'up',
      ]);
      expect(seen.states[4].reason).toMatch(/503/);
      const subscribes = streams.received.filter((r) => r.venue === 'venue_b' && r.text.includes('"orderbook_delta"'));
      expect(subscribes.length).toBeGreaterThanOrEqual(2);
    } finally {
      await stream.stop();
    }
  });
});

describe("venue_b's recorded frames", () => {
  const ctx = withFakeVenues();
  let streams: FakeVenueStreams;
  beforeAll(async () => {
    streams = await startFakeVenueStreams(ctx.fake);
  });
  afterAll(() => streams.close());

  it('reads every documented message shape (test/fixtures/venue-streams/venue-b-ws-v2.json)', async () => {
    const { frames } = JSON.parse(
      readFileSync(path.join(__dirname, '../../fixtures/venue-streams/venue-b-ws-v2.json'), 'utf8'),
    ) as { frames: { name: string; frame: Record<string, unknown> }[] };
    const GOLD = 'KXGOLDH-26AUG2711-T4615.99';
    const EMPTY = 'KXBTCD-25AUG2617-T112999.99';
    const CENTS = 'KXBTCD-26FEB14-T100000';
    const { stream, seen } = open(streams, false);
    try {
      stream.follow([{ venueMarketId: GOLD }, { venueMarketId: EMPTY }, { venueMarketId: CENTS }]);
      await waitFor(() => streams.subscribedTickers('ticker').has(GOLD), 'subscribed');
      const from = seen.events.length;
      // Subscriptions of their own (this connection's are numbered from 1): no sequence of ours is crossed.
      for (const { frame } of frames) {
        const sid = frame.sid;
        streams.send('venue_b', JSON.stringify(typeof sid === 'number' ? { ...frame, sid: 900 + sid } : frame));
      }
      await waitFor(() => seen.events.length - from === 7 && seen.problems.length === 1, 'every frame read');
      expect(seen.problems).toEqual(['venue error 8: Unknown channel name']);
      expect(seen.events.slice(from)).toEqual([
        {
          kind: 'book',
          venueMarketId: GOLD,
          bids: [{ price: 0.01, size: 1410 }],
          // A NO bid at q is a YES ask at 1 − q: the venue's own ticker below says 0.98 for 2500.
          asks: [
            { price: 0.98, size: 2500 },
            { price: 0.99, size: 100 },
          ],
          at: expect.any(Number),
        },
        {
          kind: 'levels',
          venueMarketId: GOLD,
          changes: [{ side: 'bids', price: 0.01, size: 1420 }],
          at: 1787838983996,
        },
        { kind: 'quote', venueMarketId: GOLD, bestBid: 0.01, bestAsk: 0.98, at: 1787838990880 },
        { kind: 'book', venueMarketId: EMPTY, bids: [], asks: [], at: expect.any(Number) },
        {
          kind: 'trade',
          trade: {
            venue: 'venue_b',
            venueTradeId: 'cd6c95cc-46e1-4654-faa5-1636dec2e5fe',
            venueMarketId: GOLD,
            venueTraderId: null,
            side: 'buy',
            outcome: 'yes',
            price: 0.42,
            size: 3,
            filledAt: new Date(1780096775004),
          },
        },
        {
          kind: 'book',
          venueMarketId: CENTS,
          bids: [
            { price: 0.46, size: 250 },
            { price: 0.45, size: 100 },
          ],
          asks: [{ price: 0.47, size: 120 }],
          at: expect.any(Number),
        },
        {
          kind: 'levels',
          venueMarketId: CENTS,
          changes: [{ side: 'bids', price: 0.46, size: 200 }],
          at: expect.any(Number),
        },
      ]);
    } finally {
      await stream.stop();
    }
  });
});
