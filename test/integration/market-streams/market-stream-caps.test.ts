import { MarketKeeper, type BookSnapshot, type MarketUpdate } from '../../../src/modules/market-streams';
import { MarketFollower, SUBSCRIBE_RETRY_MAX_MS } from '../../../src/modules/market-streams/market-follower';
import type { MarketStreamItem } from '../../../src/modules/market-streams';
import { http, startTestApp, type TestApp } from '../../support/app';
import { pinnedWorld } from '../../support/pinned-world';
import { openSse, type SseReader } from '../../support/sse';
import { waitFor } from '../../support/wait';

describe('market streams count against the stream caps', () => {
  let app: TestApp;
  let id: string;
  beforeAll(async () => {
    app = await startTestApp({ TRUST_PROXY: 'loopback', STREAMS_PER_ADDRESS: '2' }, {}, pinnedWorld());
    await app.services.get(MarketKeeper).settled();
    const m = await app.services.db.prisma.market.findFirstOrThrow({ where: { venue: 'venue_b', status: 'active' } });
    id = m.venueMarketId;
  });
  afterAll(() => app.close());

  it('a third stream from one address (market or trades) is 429; another address is admitted', async () => {
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
    const open: SseReader[] = [];
    try {
      open.push(await openSse(`${app.url}/stream/markets/venue_b/${id}`, from('192.0.2.61')));
      open.push(await openSse(`${app.url}/stream/trades`, from('192.0.2.61')));
      expect(open.map((s) => s.status)).toEqual([200, 200]);
      const third = await http(`${app.url}/stream/markets?ids=venue_b:${id}`, from('192.0.2.61'));
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBe('5');
      const other = await openSse(`${app.url}/stream/markets/venue_b/${id}`, from('192.0.2.62'));
      open.push(other);
      expect(other.status).toBe(200);
      expect((await other.take(1))[0].event).toBe('snapshot');
    } finally {
      open.forEach((s) => s.close());
    }
  });
});

describe('market streams with the venue streams off', () => {
  it('503 with Retry-After: no process keeps books to stream', async () => {
    const app = await startTestApp({ VENUE_STREAMS: 'off' }, {}, pinnedWorld());
    try {
      const m = await app.services.db.prisma.market.findFirstOrThrow({ where: { venue: 'venue_b', status: 'active' } });
      const r = await http(`${app.url}/stream/markets/venue_b/${m.venueMarketId}`);
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).not.toBeNull();
      expect((r.body as { message: string }).message).toMatch(/VENUE_STREAMS=off/);
    } finally {
      await app.close();
    }
  });
});

/** A follower over a topic and a book the test plays. */
function played(book: () => BookSnapshot | null) {
  let publish: (u: MarketUpdate) => void = () => undefined;
  const follower = new MarketFollower(
    { venue: 'venue_b', marketId: 'M' },
    {
      subscribe: async (onUpdate) => {
        publish = onUpdate;
        return async () => undefined;
      },
      snapshot: async () => book(),
    },
  );
  const got: MarketStreamItem[] = [];
  follower.add({ depth: 2, push: (i) => got.push(i) });
  return { follower, got, publish: (u: MarketUpdate) => publish(u) };
}

const snapshot = (seq: number, bids: [number, number][]): BookSnapshot => ({
  venue: 'venue_b',
  marketId: 'M',
  seq,
  depth: 'book',
  bids: bids.map(([price, size]) => ({ price, size })),
  asks: [],
  bestBid: bids[0]?.[0] ?? null,
  bestAsk: null,
  lastPrice: null,
  tickSize: 0.01,
  at: 0,
  source: 'stream',
});

const delta = (seq: number, bids: [number, number][]): MarketUpdate => ({
  ...snapshot(seq, bids),
  kind: 'delta',
  trades: [],
  receivedAt: 1,
});

describe('one market followed for many clients (MarketFollower)', () => {
  it('applies updates in seq order; a jump reads the book again and hands out a fresh snapshot', async () => {
    let book = snapshot(10, [
      [0.5, 1],
      [0.4, 2],
      [0.3, 3],
    ]);
    const { follower, got, publish } = played(() => book);
    await follower.ready;
    expect(got.map((i) => [i.kind, i.seq])).toEqual([['snapshot', 10]]);
    expect(got[0].bids).toEqual([
      { price: 0.5, size: 1 },
      { price: 0.4, size: 2 },
    ]);
    // Older than the book: already in it.
    publish(delta(9, [[0.5, 9]]));
    // The best bid goes: the third level enters the top 2 (0.4 is unchanged, so not repeated).
    publish(delta(11, [[0.5, 0]]));
    expect(got.at(-1)).toMatchObject({ kind: 'delta', seq: 11 });
    expect(got.at(-1)!.bids).toEqual([
      { price: 0.3, size: 3 },
      { price: 0.5, size: 0 },
    ]);
    // 12 is missed: 13 makes the follower read the book (now at 13) and start every client over.
    book = snapshot(13, [[0.45, 5]]);
    publish(delta(13, [[0.45, 5]]));
    await waitFor(() => got.at(-1)!.seq === 13, 'the fresh snapshot');
    expect(got.at(-1)).toMatchObject({ kind: 'snapshot', bids: [{ price: 0.45, size: 5 }] });
    publish(delta(14, [[0.44, 1]]));
    expect(got.at(-1)).toMatchObject({ kind: 'delta', seq: 14, bids: [{ price: 0.44, size: 1 }] });
    expect(got.map((i) => i.seq)).toEqual([10, 11, 13, 14]);
    await follower.close();
  });

  it('the pub/sub unreachable at first: subscribed again until it can be, then the book', async () => {
    let failures = 2;
    let attempts = 0;
    let publish: (u: MarketUpdate) => void = () => undefined;
    const follower = new MarketFollower(
      { venue: 'venue_b', marketId: 'M' },
      {
        subscribe: async (onUpdate) => {
          attempts += 1;
          if (failures-- > 0) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
          publish = onUpdate;
          return async () => undefined;
        },
        snapshot: async () => snapshot(30, [[0.5, 1]]),
      },
    );
    const got: MarketStreamItem[] = [];
    follower.add({ depth: 2, push: (i) => got.push(i) });
    await follower.ready;
    expect(attempts).toBe(3);
    expect(got.map((i) => [i.kind, i.seq])).toEqual([['snapshot', 30]]);
    publish(delta(31, [[0.5, 2]]));
    expect(got.at(-1)).toMatchObject({ kind: 'delta', seq: 31 });
    await follower.close();

    // Closed while it waits to try again: the wait ends with it.
    const never = new MarketFollower(
      { venue: 'venue_b', marketId: 'N' },
      { subscribe: () => Promise.reject(new Error('down')), snapshot: async () => null },
    );
    const started = Date.now();
    await new Promise((r) => setTimeout(r, 20));
    await never.close();
    expect(Date.now() - started).toBeLessThan(SUBSCRIBE_RETRY_MAX_MS);
  });

  it('a client that comes back holding the current seq gets no snapshot; one behind gets one', async () => {
    const { follower, publish } = played(() => snapshot(20, [[0.5, 1]]));
    await follower.ready;
    const same: MarketStreamItem[] = [];
    const behind: MarketStreamItem[] = [];
    follower.add({ depth: 2, push: (i) => same.push(i) }, 20);
    follower.add({ depth: 2, push: (i) => behind.push(i) }, 18);
    expect(same).toEqual([]);
    expect(behind.map((i) => i.kind)).toEqual(['snapshot']);
    publish(delta(21, [[0.5, 2]]));
    expect(same.map((i) => [i.kind, i.seq])).toEqual([['delta', 21]]);
    await follower.close();
  });
});
