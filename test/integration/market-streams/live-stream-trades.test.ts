import { generateKeyPairSync } from 'node:crypto';
import type { VenueStreamView } from '../../../src/modules/market-streams';
import { isLiveVenueClient, type VenueClient } from '../../../src/venues';
import { http, startTestApp, type TestApp } from '../../support/app';
import { startFakeVenues, type FakeVenues } from '../../support/fake-venues';
import { startFakeVenueStreams, type FakeVenueStreams } from '../../support/fake-venue-streams';
import { openSse, type SseReader } from '../../support/sse';
import { eventually, waitFor } from '../../support/wait';
import { capturingLogger } from '../venues/live-clients.support';

const C25 = 'KXFEDDECISION-26DEC-C25';
const NYC = 'KXHIGHNY-26DEC01-T50';
const BTC_A = '0x3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a23';

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const KEY_ENV = {
  VENUE_B_API_KEY_ID: 'key-1',
  VENUE_B_PRIVATE_KEY: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};

interface Harness {
  fake: FakeVenues;
  streams: FakeVenueStreams;
  app: TestApp;
  lines: string[];
}

async function start(env: Record<string, string>): Promise<Harness> {
  const fake = await startFakeVenues();
  const streams = await startFakeVenueStreams(fake);
  const { logger, lines } = capturingLogger();
  const app = await startTestApp({ ...fake.env, ...streams.env, ...KEY_ENV, ...env }, {}, { logger });
  return { fake, streams, app, lines };
}

async function stop(h: Harness | undefined): Promise<void> {
  if (!h) return;
  await h.app.close();
  await h.streams.close();
  await h.fake.close();
}

async function health(app: TestApp, venue: string): Promise<VenueStreamView> {
  const r = await http(`${app.url}/health`);
  return (r.body as { venueStreams: VenueStreamView[] }).venueStreams.find((v) => v.venue === venue)!;
}

async function waitState(app: TestApp, venue: string, state: string): Promise<VenueStreamView> {
  return eventually(async () => {
    const v = await health(app, venue);
    return v.state === state ? v : undefined;
  }, `${venue} ${state}`);
}

function live(app: TestApp, venue: 'venue_a' | 'venue_b') {
  const c: VenueClient = app.services.venues[venue];
  if (!isLiveVenueClient(c)) throw new Error('not a live client');
  return c;
}

const idOf = (m: { data: string }) => (JSON.parse(m.data) as { id: string }).id;

describe("live venues: trades from the venues' streams", () => {
  let h: Harness;
  let sse: SseReader;
  beforeAll(async () => {
    // Polling only when a test asks for it: what reaches the stream here came from the websockets.
    h = await start({ VENUE_TRADES_POLL_MS: '3600000' });
    await waitState(h.app, 'venue_a', 'up');
    await waitState(h.app, 'venue_b', 'up');
    sse = await openSse(`${h.app.url}/stream/trades`);
  });
  afterAll(async () => {
    sse?.close();
    await stop(h);
  });

  it("says where each venue's live data comes from in /health", async () => {
    expect(await health(h.app, 'venue_b')).toMatchObject({
      source: 'live',
      state: 'up',
      trades: 'stream',
      books: 'stream',
      reason: null,
    });
    // venue_a's print names no trader: its tape is still polled for the identities.
    expect(await health(h.app, 'venue_a')).toMatchObject({
      state: 'up',
      trades: 'stream and polling',
      books: 'stream',
    });
    expect((await health(h.app, 'venue_a')).markets).toBeGreaterThan(0);
    expect(h.lines.filter((l) => /venue_b stream up/.test(l))).toHaveLength(1);
  });

  it('a venue_b trade reaches /stream/trades from the stream, and once, whatever polling saw of it', async () => {
    const id = h.streams.trade('venue_b', { venueMarketId: NYC, outcome: 'yes', price: 0.52, size: 3 });
    const [m] = await sse.take(1);
    expect(idOf(m)).toBe(`venue_b:${id}`);
    expect(JSON.parse(m.data)).toMatchObject({ venue: 'venue_b', marketId: NYC, outcome: 'yes', price: 0.52, size: 3 });
    // The tape has it too: a poll hands it on, and it is stored and published once.
    await live(h.app, 'venue_b').pollTradesOnce();
    await live(h.app, 'venue_b').pollTradesOnce();
    const marker = h.streams.trade('venue_b', { venueMarketId: C25, outcome: 'no', price: 0.41, size: 1 });
    const [next] = await sse.take(1);
    expect(idOf(next)).toBe(`venue_b:${marker}`);
    expect(await h.app.services.db.prisma.trade.count({ where: { venue: 'venue_b', venueTradeId: id } })).toBe(1);
  });

  it('a venue_a print is published at once without its trader; the polled tape names the trader later', async () => {
    const wallet = '0xabc0000000000000000000000000000000000042';
    const id = h.streams.trade('venue_a', {
      venueMarketId: BTC_A,
      outcome: 'yes',
      side: 'buy',
      price: 0.33,
      size: 9,
      wallet,
    });
    const [m] = await sse.take(1);
    expect(JSON.parse(m.data)).toMatchObject({
      venue: 'venue_a',
      marketId: BTC_A,
      traderId: null,
      price: 0.33,
      size: 9,
    });
    expect(idOf(m)).toContain(id);
    await live(h.app, 'venue_a').pollTradesOnce();
    await live(h.app, 'venue_a').pollTradesOnce();
    const row = await eventually(async () => {
      const r = await h.app.services.db.prisma.trade.findFirst({
        where: { venue: 'venue_a', venueTradeId: { startsWith: id } },
      });
      return r?.venueTraderId ? r : undefined;
    }, 'the trader named');
    expect(row.venueTraderId).toBe(wallet);
    // The trader's position counts it (stats follow the identification).
    await eventually(
      async () => (await h.app.services.db.prisma.traderPosition.count({ where: { traderId: wallet } })) || undefined,
      "the trader's position",
    );
    const marker = h.streams.trade('venue_b', { venueMarketId: C25, outcome: 'yes', price: 0.6, size: 2 });
    const [next] = await sse.take(1);
    expect(idOf(next)).toBe(`venue_b:${marker}`);
  });
});

describe('live venues: polling stands in while a stream is down', () => {
  let h: Harness;
  afterEach(async () => {
    await stop(h);
  });

  it('falls back to polling (said once), and the stream takes over again when it is back', async () => {
    h = await start({ VENUE_TRADES_POLL_MS: '200' });
    await waitState(h.app, 'venue_b', 'up');
    const sse = await openSse(`${h.app.url}/stream/trades`);
    try {
      h.streams.refuse('venue_b', 1_000_000);
      h.streams.drop('venue_b');
      const down = await waitState(h.app, 'venue_b', 'down');
      expect(down).toMatchObject({ trades: 'polling', books: 'on request' });
      await waitFor(
        () => h.streams.handshakes.filter((x) => x.venue === 'venue_b' && x.refused).length >= 3,
        'retries',
      );
      expect(h.lines.filter((l) => /venue_b stream down/.test(l))).toHaveLength(1);
      expect(h.lines.find((l) => /venue_b stream down/.test(l))).toMatch(/trades polled every 200 ms/);

      // Only the tape has this one: polling brings it.
      const polled = h.fake.addTrade('venue_b', { venueMarketId: NYC, outcome: 'no', price: 0.44, size: 5 });
      const [m] = await sse.take(1);
      expect(idOf(m)).toBe(`venue_b:${polled}`);

      h.streams.refuse('venue_b', 0);
      const up = await waitState(h.app, 'venue_b', 'up');
      expect(up.trades).toBe('stream');
      expect(h.lines.filter((l) => /venue_b stream up/.test(l))).toHaveLength(2);
      const printed = h.streams.trade(
        'venue_b',
        { venueMarketId: C25, outcome: 'yes', price: 0.51, size: 1 },
        { tape: false },
      );
      const [n] = await sse.take(1);
      expect(idOf(n)).toBe(`venue_b:${printed}`);
      // Polling stops while the stream carries the trades: over two heartbeats of venue_a's connection
      // (a second each; polling would read five times a second) the tape is not read.
      const pings = () => h.streams.received.filter((r) => r.text === 'PING').length;
      const from = pings();
      await waitFor(() => pings() >= from + 1, 'a heartbeat');
      const polls = h.fake.requestsTo('kalshi', '/markets/trades').length;
      await waitFor(() => pings() >= from + 3, 'two more heartbeats');
      expect(h.fake.requestsTo('kalshi', '/markets/trades').length).toBe(polls);
    } finally {
      sse.close();
    }
  });

  it('fetches the trades made while the stream was down when it is back', async () => {
    // No timer polls (an hour): only the catch-up can bring a trade made during the outage.
    h = await start({ VENUE_TRADES_POLL_MS: '3600000' });
    await waitState(h.app, 'venue_b', 'up');
    const sse = await openSse(`${h.app.url}/stream/trades`);
    try {
      h.streams.refuse('venue_b', 1_000_000);
      h.streams.drop('venue_b');
      await waitState(h.app, 'venue_b', 'down');
      const missed = h.fake.addTrade('venue_b', { venueMarketId: NYC, outcome: 'yes', price: 0.47, size: 2 });
      h.streams.refuse('venue_b', 0);
      const [m] = await sse.take(1);
      expect(idOf(m)).toBe(`venue_b:${missed}`);
      expect(h.lines.some((l) => /fetching the trades a stream missed/.test(l))).toBe(true);
    } finally {
      sse.close();
    }
  });
});
