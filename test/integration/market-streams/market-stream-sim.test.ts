import { spawn } from 'node:child_process';
import path from 'node:path';
import { createClient } from 'graphql-sse';
import { describeBook, followMarket } from '../../../examples/market-stream';
import { MarketBookStore, MarketFollowers, MarketKeeper, marketTopic } from '../../../src/modules/market-streams';
import type { SimVenueStream } from '../../../src/venues';
import { http, startTestApp, type TestApp } from '../../support/app';
import { pinnedWorld, type PinnedWorld } from '../../support/pinned-world';
import { openSse, type SseReader } from '../../support/sse';
import { waitFor } from '../../support/wait';

interface Item {
  id: string;
  venue: string;
  marketId: string;
  seq: number;
  kind: string;
  bids: { price: number; size: number }[];
  asks: { price: number; size: number }[];
  bestBid: number | null;
  bestAsk: number | null;
  trades: unknown[];
  receivedAt: string;
}

/** Two active markets of a venue of the pinned world, by the catalog. */
async function activeMarkets(app: TestApp, venue: 'venue_a' | 'venue_b'): Promise<string[]> {
  const rows = await app.services.db.prisma.market.findMany({
    where: { venue, status: 'active' },
    orderBy: { venueMarketId: 'asc' },
    take: 2,
  });
  return rows.map((r) => r.venueMarketId);
}

/** Applies a client's items to the book it holds (snapshot replaces, delta sets levels). */
function apply(book: Map<string, number>, item: Item): void {
  if (item.kind !== 'delta') book.clear();
  for (const [side, levels] of [
    ['b', item.bids],
    ['a', item.asks],
  ] as const) {
    for (const l of levels) {
      if (l.size > 0) book.set(`${side}${l.price}`, l.size);
      else book.delete(`${side}${l.price}`);
    }
  }
}

const parse = (m: { data: string }) => JSON.parse(m.data) as Item;

describe('market streams out, from the simulated world', () => {
  let pinned: PinnedWorld;
  let app: TestApp;
  let ids: string[];
  const tick = async () => {
    pinned.clock.ms += 15_000;
    const keeper = app.services.get(MarketKeeper) as unknown as { runs: Map<string, { stream: SimVenueStream }> };
    await keeper.runs.get('venue_b')!.stream.tick();
  };
  beforeAll(async () => {
    pinned = pinnedWorld();
    app = await startTestApp({}, {}, pinned);
    await app.services.get(MarketKeeper).settled();
    ids = await activeMarkets(app, 'venue_b');
  });
  afterAll(() => app.close());

  it('SSE: a snapshot of the top `depth` levels, then the changes within it in seq order', async () => {
    const sse = await openSse(`${app.url}/stream/markets/venue_b/${ids[0]}?depth=3`);
    try {
      expect(sse.status).toBe(200);
      const [first] = await sse.take(1);
      expect(first.event).toBe('snapshot');
      const snap = parse(first);
      const book = (await app.services.get(MarketBookStore).snapshot('venue_b', ids[0], 3))!;
      expect(snap).toMatchObject({ venue: 'venue_b', marketId: ids[0], kind: 'snapshot', bids: book.bids });
      expect(snap.asks).toEqual(book.asks);
      expect(first.id).toBe(`venue_b:${ids[0]}:${snap.seq}`);
      const held = new Map<string, number>();
      apply(held, snap);
      let last = snap.seq;
      for (let round = 0; round < 3; round += 1) {
        await tick();
        const [m] = await sse.take(1);
        const item = parse(m);
        expect(m.event).toBe(item.kind);
        expect(item.seq).toBe(last + 1);
        last = item.seq;
        apply(held, item);
        const now = (await app.services.get(MarketBookStore).snapshot('venue_b', ids[0], 3))!;
        const want = new Map([
          ...now.bids.map((l) => [`b${l.price}`, l.size] as const),
          ...now.asks.map((l) => [`a${l.price}`, l.size] as const),
        ]);
        expect(held).toEqual(want);
      }
    } finally {
      sse.close();
    }
  });

  it('GraphQL (graphql-sse): the same snapshot, then deltas with consecutive seq', async () => {
    const client = createClient({ url: `${app.url}/graphql/stream`, retryAttempts: 0 });
    const got: Item[] = [];
    const errors: unknown[] = [];
    const stop = client.subscribe<{ marketUpdates: Item }>(
      {
        query: `subscription($m: String!) { marketUpdates(venue: venue_b, marketId: $m, depth: 2) {
          id venue marketId seq kind bids { price size } asks { price size } bestBid bestAsk
          trades { id } receivedAt } }`,
        variables: { m: ids[0] },
      },
      { next: (r) => r.data && got.push(r.data.marketUpdates), error: (e) => errors.push(e), complete: () => {} },
    );
    try {
      await waitFor(() => got.length > 0 || errors.length > 0, 'the snapshot');
      expect(errors).toEqual([]);
      expect(got[0]).toMatchObject({ kind: 'snapshot', venue: 'venue_b', marketId: ids[0] });
      expect(got[0].bids.length).toBeLessThanOrEqual(2);
      expect(Number.isNaN(Date.parse(got[0].receivedAt))).toBe(false);
      await tick();
      await waitFor(() => got.length > 1, 'a delta');
      expect(got[1].seq).toBe(got[0].seq + 1);
    } finally {
      stop();
      client.dispose();
    }
  });

  it('GraphQL `marketUpdates(markets: [...])`: the markets on one stream; one form only, else named', async () => {
    const run = (query: string, variables: Record<string, unknown>) => {
      const client = createClient({ url: `${app.url}/graphql/stream`, retryAttempts: 0 });
      const got: Item[] = [];
      const errors: { message: string; extensions?: { code?: string } }[] = [];
      const stop = client.subscribe<{ marketUpdates: Item }>(
        { query, variables },
        {
          next: (r) => {
            if (r.data) got.push(r.data.marketUpdates);
            for (const e of r.errors ?? []) errors.push(e);
          },
          error: (e) => errors.push(e as never),
          complete: () => {},
        },
      );
      return { got, errors, stop: () => (stop(), client.dispose()) };
    };
    const fields = '{ venue marketId seq kind }';
    const set = run(`subscription($m: [MarketRefInput!]) { marketUpdates(markets: $m, depth: 1) ${fields} }`, {
      m: [
        { venue: 'venue_b', marketId: ids[0] },
        { venue: 'venue_b', marketId: ids[1] },
      ],
    });
    try {
      await waitFor(() => set.got.length >= 2 || set.errors.length > 0, 'both snapshots');
      expect(set.errors).toEqual([]);
      expect(new Set(set.got.slice(0, 2).map((i) => `${i.kind}:${i.marketId}`))).toEqual(
        new Set([`snapshot:${ids[0]}`, `snapshot:${ids[1]}`]),
      );
    } finally {
      set.stop();
    }
    const wrong: [string, Record<string, unknown>, RegExp][] = [
      [
        'subscription($m: [MarketRefInput!]) ' +
          `{ marketUpdates(venue: venue_b, marketId: "${ids[0]}", markets: $m) ${fields} }`,
        { m: [{ venue: 'venue_b', marketId: ids[1] }] },
        /^markets: give either/,
      ],
      [`subscription { marketUpdates(depth: 1) ${fields} }`, {}, /^venue: is required/],
      [`subscription { marketUpdates(venue: venue_b) ${fields} }`, {}, /^marketId: is required/],
      [`subscription { marketUpdates(markets: []) ${fields} }`, {}, /^markets: must list 1 to 20/],
      [
        `subscription { marketUpdates(markets: [{ venue: venue_b, marketId: "NO-SUCH" }]) ${fields} }`,
        {},
        /market venue_b:NO-SUCH/,
      ],
    ];
    for (const [query, variables, message] of wrong) {
      const r = run(query, variables);
      try {
        await waitFor(() => r.errors.length > 0 || r.got.length > 0, 'an error');
        expect([query, r.got]).toEqual([query, []]);
        expect(r.errors[0].message).toMatch(message);
      } finally {
        r.stop();
      }
    }
  });

  it('the multi-market route: a snapshot of each market, on one connection', async () => {
    const sse = await openSse(`${app.url}/stream/markets?ids=venue_b:${ids[0]},venue_b:${ids[1]}&depth=1`);
    try {
      expect(sse.status).toBe(200);
      const items = (await sse.take(2)).map(parse);
      expect(items.map((i) => i.kind)).toEqual(['snapshot', 'snapshot']);
      expect(new Set(items.map((i) => i.marketId))).toEqual(new Set(ids));
      for (const i of items) expect(i.bids.length).toBeLessThanOrEqual(1);
    } finally {
      sse.close();
    }
  });

  it('many clients of one market share one follower and one pub/sub subscription', async () => {
    const followers = app.services.get(MarketFollowers);
    const topic = marketTopic('venue_b', ids[1]);
    const pubsub = app.services.infra.pubsub;
    // The earlier tests' clients are gone: the market is followed by nobody.
    await waitFor(() => followers.markets === 0, 'no market followed');
    const before = pubsub.listenerCount(topic);
    const clients: SseReader[] = [];
    try {
      for (let i = 0; i < 12; i += 1) clients.push(await openSse(`${app.url}/stream/markets/venue_b/${ids[1]}`));
      for (const c of clients) expect((await c.take(1))[0].event).toBe('snapshot');
      expect(followers.clientsOf({ venue: 'venue_b', marketId: ids[1] })).toBe(12);
      expect(pubsub.listenerCount(topic) - before).toBe(1);
    } finally {
      clients.forEach((c) => c.close());
    }
    await waitFor(() => followers.clientsOf({ venue: 'venue_b', marketId: ids[1] }) === 0, 'the clients gone');
    await waitFor(() => pubsub.listenerCount(topic) === before, 'the subscription dropped');
  });

  it('Last-Event-ID: nothing missed goes on without a snapshot; a gap gets a fresh snapshot', async () => {
    const url = `${app.url}/stream/markets/venue_b/${ids[0]}?depth=3`;
    const first = await openSse(url);
    const [m] = await first.take(1);
    first.close();
    // Reconnecting at once: nothing was missed, so no snapshot; the next change arrives as a delta.
    const same = await openSse(url, { headers: { 'last-event-id': m.id! } });
    try {
      // A second client makes sure the follower (shared) is in place before the change.
      const other = await openSse(url);
      await other.take(1);
      other.close();
      await tick();
      const [next] = await same.take(1);
      expect(next.event).toBe('delta');
      expect(parse(next).seq).toBe(parse(m).seq + 1);
    } finally {
      same.close();
    }
    // Changes happen while away: the reconnection starts with a fresh snapshot.
    await tick();
    const back = await openSse(url, { headers: { 'last-event-id': m.id! } });
    try {
      const [again] = await back.take(1);
      expect(again.event).toBe('snapshot');
      expect(parse(again).seq).toBeGreaterThan(parse(m).seq);
    } finally {
      back.close();
    }
  });

  it('400s and 404s', async () => {
    const many = Array.from({ length: 21 }, (_, i) => `venue_b:M${i}`).join(',');
    const cases: [string, number, RegExp][] = [
      [`/stream/markets/venue_b/NO-SUCH-MARKET`, 404, /not found/],
      [`/stream/markets/venue_c/${ids[0]}`, 400, /^venue/],
      [`/stream/markets/venue_b/${ids[0]}?depth=51`, 400, /^depth/],
      [`/stream/markets?ids=${many}`, 400, /^ids: must list at most 20/],
      [`/stream/markets?ids=venue_b:${ids[0]},nonsense`, 400, /^ids: must be market ids/],
      [`/stream/markets?ids=venue_b:${ids[0]},venue_b:NO-SUCH`, 404, /market venue_b:NO-SUCH/],
      [`/stream/markets`, 400, /^ids/],
    ];
    for (const [path, status, message] of cases) {
      const r = await http(`${app.url}${path}`, { headers: { accept: 'text/event-stream' } });
      expect([path, r.status]).toEqual([path, status]);
      expect((r.body as { message: string }).message).toMatch(message);
    }
    const bad = await http(`${app.url}/stream/markets/venue_b/${ids[0]}`, { headers: { 'last-event-id': 'x' } });
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toMatch(/^Last-Event-ID/);
  });

  it('examples/market-stream.ts holds the book the server holds, and runs as a script', async () => {
    const follower = followMarket(app.url, 'venue_b', ids[1], { depth: 4, onBook: () => undefined });
    try {
      await waitFor(() => follower.book.live, 'the first snapshot');
      const want = async () => (await app.services.get(MarketBookStore).snapshot('venue_b', ids[1], 4))!;
      expect({ bids: follower.book.bids, asks: follower.book.asks }).toEqual({
        bids: (await want()).bids,
        asks: (await want()).asks,
      });
      const seq = follower.book.seq;
      await tick();
      await waitFor(() => follower.book.seq > seq, 'the change');
      const now = await want();
      expect({ bids: follower.book.bids, asks: follower.book.asks }).toEqual({ bids: now.bids, asks: now.asks });
    } finally {
      follower.close();
    }
    const root = path.resolve(__dirname, '../../..');
    const child = spawn(
      process.execPath,
      ['-r', './scripts/register.js', 'examples/market-stream.ts', app.url, 'venue_b', ids[1], '2'],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await waitFor(() => out.includes('\n'), 'the first line', 30_000);
      const snap = (await app.services.get(MarketBookStore).snapshot('venue_b', ids[1], 2))!;
      expect(out.split('\n')[0]).toBe(
        describeBook('venue_b', ids[1], { ...snap, seq: Number(/#(\d+)/.exec(out)![1]), live: true }),
      );
    } finally {
      child.kill();
    }
  });
});
