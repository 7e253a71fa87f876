import {
  UserStatsDocument,
  type LeaderboardMeQuery,
  type LeaderboardQuery,
  type UserStatsQuery,
} from '../../../schema/generated/operations';
import { TradeIngestService } from '../../../src/modules/ingestion/trade-ingest.service';
import type { PublicTrade } from '../../../src/venues/venue.models';
import { http, startTestApp, type TestApp, type UserClient } from '../../support/app';
import { publicTrade } from '../../support/trades';
import { statementsOf } from './statements';
import { importVerified, polygonSignerStartingWith, wallets } from '../../support/wallets';
import { postStream } from '../../support/execution-stream';
import { gql } from '../../support/graphql';
import { activeMatchedEvent } from '../../support/pinned-world';

type Leaderboard = LeaderboardQuery['leaderboard'];
type Me = LeaderboardMeQuery['leaderboardMe'];
type Stats = UserStatsQuery['userStats'];

// Other traders, and the wallets ann and cat link and verify with real keys, chosen so that the
// lower-case ids sort P < Q < R < S < W1 < W2.
const [P, Q, R] = wallets('1', '2', '3');
const [S_KEY, W1_KEY, W2_KEY] = ['4', '5', '6'].map(polygonSignerStartingWith);
const [S, W1, W2] = [S_KEY, W1_KEY, W2_KEY].map((k) => k.address.toLowerCase());

let app: TestApp;
let ann: UserClient;
let bob: UserClient;
let ghost: UserClient;
let marketId: string;
let seq = 0;
const t = (trader: string, side: 'buy' | 'sell', size: number, price = 0.5): PublicTrade => {
  seq += 1;
  return publicTrade({
    venueTradeId: `st-${seq}`,
    venueMarketId: marketId,
    venueTraderId: trader,
    side,
    price,
    size,
    filledAt: new Date(Date.UTC(2026, 10, 2, 0, 0, seq)),
  });
};

beforeAll(async () => {
  app = await startTestApp();
  const prisma = app.services.db.prisma;
  marketId = (await prisma.market.findFirstOrThrow({ where: { venue: 'venue_a' } })).venueMarketId;
  [ann, bob, ghost] = [app.as('ann'), app.as('bob'), app.as('ghost')];
  // ann and bob sign up (a provisioned polygon wallet each, never trading); ann links W1 and W2.
  for (const user of [ann, bob]) expect((await user.post('/auth/setup')).status).toBe(200);
  // Imported wallets count as the user's traders once verified.
  for (const key of [W1_KEY, W2_KEY]) await importVerified(ann, key);
  // Volumes (price 0.5): P 60, Q 50, W1 40 + 7, R 30, S 20, W2 5. Trades: W1 5, R 2, the rest 1.
  await app.services
    .get(TradeIngestService)
    .ingest([
      t(P, 'buy', 120),
      t(Q, 'buy', 100),
      ...Array.from({ length: 4 }, () => t(W1, 'buy', 20)),
      t(R, 'buy', 30),
      t(R, 'buy', 30),
      t(S, 'buy', 40),
      t(W2, 'buy', 10),
    ]);
  // W1 sells 10 of 80 held at 0.50 for 0.70: +2.00 realized, one win.
  await app.services.get(TradeIngestService).ingest([t(W1, 'sell', 10, 0.7)]);
  // ann's orders placed here: a filled paper (simulation) order, a filled live venue_a order, a filled live
  // venue_b order, an unfilled paper one.
  const order = (venue: 'venue_a' | 'venue_b', mode: 'simulation' | 'live', filled: bigint, notional: bigint) => ({
    userId: 'ann',
    venue,
    marketId: `${venue}:x`,
    venueMarketId: 'x',
    outcome: 'yes' as const,
    side: 'buy' as const,
    orderType: 'market' as const,
    mode,
    requestedSizeMicros: 25_000_000n,
    filledSizeMicros: filled,
    notionalMicros: notional,
    state: filled > 0n ? ('filled' as const) : ('cancelled' as const),
  });
  await prisma.order.createMany({
    data: [
      order('venue_b', 'simulation', 25_000_000n, 12_500_000n),
      order('venue_a', 'live', 16_000_000n, 8_000_000n),
      order('venue_b', 'live', 20_000_000n, 10_000_000n),
      order('venue_a', 'simulation', 0n, 0n),
    ],
  });
  await ann.post('/api/follows', { venue: 'venue_a', traderId: P });
  await bob.post('/api/follows', { venue: 'venue_a', traderId: W1.toUpperCase().replace('0X', '0x') });
  const slug = app.services.world.coreEvents[0].slug;
  expect((await ann.post(`/api/events/${slug}/comments`, { body: 'gm' })).status).toBe(201);
});
afterAll(async () => {
  await app.close();
});

const me = async (user: UserClient, qs = '') => user.get(`/api/leaderboard/me${qs ? `?${qs}` : ''}`);

describe('GET /api/leaderboard/me', () => {
  it('ranks the caller by their best-ranked linked wallet, with neighbours on each side', async () => {
    const r = await me(ann, 'neighbours=1');
    expect(r.status).toBe(200);
    const body = r.body as Me;
    expect(body.sortBy).toBe('total_volume');
    expect(body.total).toBe(6);
    expect(body.traderIds).toHaveLength(3); // the provisioned polygon wallet and the two linked ones
    expect(body.traderIds).toEqual(expect.arrayContaining([W1, W2]));
    expect(body.rank).toBe(3);
    expect(body.me).toMatchObject({ rank: 3, traderId: W1, totalVolume: 47, totalTrades: 5 });
    expect(body.neighbours.map((n) => [n.rank, n.traderId])).toEqual([
      [2, Q],
      [3, W1],
      [4, R],
    ]);
  });

  it.each(['total_volume', 'total_pnl', 'win_count', 'total_trades'])(
    'agrees with GET /api/leaderboard for sort_by=%s',
    async (sort) => {
      const board = ((await http(`${app.url}/api/leaderboard?sort_by=${sort}&limit=200`)).body as Leaderboard).data;
      const body = (await me(ann, `sort_by=${sort}&neighbours=2`)).body as Me;
      const mine = board.filter((b) => [W1, W2].includes(b.traderId));
      expect(body.rank).toBe(mine[0].rank);
      expect(body.me!.traderId).toBe(mine[0].traderId);
      const i = body.rank! - 1;
      expect(body.neighbours).toEqual(board.slice(Math.max(0, i - 2), i + 3));
    },
  );

  it('ranks by trade count: W1 first, neighbours only below it', async () => {
    const body = (await me(ann, 'sort_by=total_trades')).body as Me;
    expect(body.rank).toBe(1);
    expect(body.neighbours.map((n) => n.traderId)).toEqual([W1, R, P]);
  });

  it('breaks ties as the board does (figure, then venue, then trader id)', async () => {
    const cat = app.as('cat');
    await importVerified(cat, S_KEY);
    // One trade each for P, Q, S and W2: S comes after P and Q.
    const body = (await me(cat, 'sort_by=total_trades&neighbours=1')).body as Me;
    expect(body.rank).toBe(5);
    expect(body.neighbours.map((n) => [n.rank, n.traderId])).toEqual([
      [4, Q],
      [5, S],
      [6, W2],
    ]);
  });

  it('neighbours=0 lists the caller alone, neighbours=10 the whole board', async () => {
    expect(((await me(ann, 'neighbours=0')).body as Me).neighbours.map((n) => n.traderId)).toEqual([W1]);
    expect(((await me(ann, 'neighbours=10')).body as Me).neighbours.map((n) => n.rank)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('answers rank null and no neighbours when no wallet of the caller has traded', async () => {
    const withWallet = (await me(bob)).body as Me;
    expect(withWallet).toMatchObject({ total: 6, rank: null, me: null, neighbours: [] });
    expect(withWallet.traderIds).toHaveLength(1);
    expect((await me(ghost)).body).toEqual({
      sortBy: 'total_volume',
      total: 6,
      traderIds: [],
      rank: null,
      me: null,
      neighbours: [],
    });
  });

  it('401 without bearer; 400 for a bad sort or neighbours', async () => {
    expect((await http(`${app.url}/api/leaderboard/me`)).status).toBe(401);
    for (const qs of ['sort_by=luck', 'neighbours=11', 'neighbours=-1', 'neighbours=x']) {
      const r = await me(ann, qs);
      expect(r.status).toBe(400);
      expect((r.body as { message: string }).message).toMatch(/^(sort_by|neighbours): /);
    }
  });

  it('runs the same number of SQL statements whatever the neighbourhood', async () => {
    const count = (qs: string) => statementsOf(app, () => me(ann, qs));
    const n = await count('neighbours=0');
    expect(n).toBe(await count('neighbours=10'));
    expect(n).toBeLessThanOrEqual(5);
  });
});

describe('GET /api/stats and /api/stats/{userId}', () => {
  it("combines the wallets' trader stats with the live orders placed here, not paper ones (by hand)", async () => {
    const r = await http(`${app.url}/api/stats/ann`);
    expect(r.status).toBe(200);
    const s = r.body as Stats;
    expect(s).toMatchObject({ userId: 'ann', wallets: 3, rankedWallets: 2, followers: 1, following: 1, comments: 1 });
    expect(s.joinedAt).toEqual(expect.any(String));
    expect(s.onChain).toMatchObject({
      totalVolume: 52,
      totalTrades: 6,
      winCount: 1,
      lossCount: 0,
      realizedPnl: 2,
      totalPnl: 2,
    });
    expect(s.onChain.firstTradeAt).toEqual(expect.any(String));
    // The two live orders (8 + 10); the paper order's 12.5 never counts.
    expect(s.orders).toEqual({ filledOrders: 2, volume: 18 });
    // The live venue_a order settles from a wallet (the on-chain figures count it once indexed): 52 + 10.
    expect(s.totalVolume).toBe(62);
    expect(s.totalTrades).toBe(7);
  });

  it("GET /api/stats is the caller's own public stats; 401 without bearer", async () => {
    const own = await ann.get('/api/stats');
    expect(own.status).toBe(200);
    expect(own.body).toEqual((await http(`${app.url}/api/stats/ann`)).body);
    expect((await http(`${app.url}/api/stats`)).status).toBe(401);
  });

  it('answers zeros for a user with no activity (not 404)', async () => {
    const r = await http(`${app.url}/api/stats/nobody`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      userId: 'nobody',
      joinedAt: null,
      wallets: 0,
      rankedWallets: 0,
      followers: 0,
      following: 0,
      comments: 0,
      onChain: {
        totalVolume: 0,
        totalTrades: 0,
        winCount: 0,
        lossCount: 0,
        realizedPnl: 0,
        unrealizedPnl: 0,
        totalPnl: 0,
        firstTradeAt: null,
        lastTradeAt: null,
      },
      orders: { filledOrders: 0, volume: 0 },
      totalVolume: 0,
      totalTrades: 0,
    });
    expect(((await http(`${app.url}/api/stats/bob`)).body as Stats).joinedAt).toEqual(expect.any(String));
  });

  it('400 for an over-long user id', async () => {
    const r = await http(`${app.url}/api/stats/${'u'.repeat(201)}`);
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(/^userId: /);
  });

  it('runs two SQL statements for any user', async () => {
    const count = (id: string) => statementsOf(app, () => http(`${app.url}/api/stats/${id}`));
    expect(await count('ann')).toBe(2);
    expect(await count('nobody')).toBe(2);
  });
});

describe('paper orders and unverified wallets are in no public figure', () => {
  it('a user who only paper-traded, with an unverified import that traded on-chain, shows zeros', async () => {
    const pat = app.as('paper-pat');
    expect((await pat.post('/auth/setup')).status).toBe(200);
    // An address pat imported but never verified, with public trades of its own.
    const [U] = wallets('7');
    expect((await pat.post('/api/wallets/import', { chain: 'polygon', address: U })).status).toBe(201);
    await app.services.get(TradeIngestService).ingest([t(U, 'buy', 40), t(U, 'sell', 20, 0.8)]);
    const board = async () => ((await http(`${app.url}/api/leaderboard?limit=200`)).body as Leaderboard).data;
    const before = await board();
    // Paper orders through the API (bearer, mode simulation) on both venues: they fill in the paper account.
    const event = activeMatchedEvent(app.services.world, Date.now());
    for (const venue of ['venue_a', 'venue_b'] as const) {
      const marketId = event.markets.map((m) => m.venueMarketIds[venue]).find((id) => id !== undefined)!;
      const r = await postStream(
        `${app.url}/execute`,
        { marketId, side: 'buy', outcome: 'yes', size: 10, mode: 'simulation' },
        await app.bearer('paper-pat'),
      );
      expect(r.events.at(-1)?.event).toBe('completed');
    }
    const paper = await app.services.db.prisma.order.findMany({ where: { userId: 'paper-pat' } });
    expect(paper.map((o) => [o.mode, o.filledSizeMicros > 0n])).toEqual([
      ['simulation', true],
      ['simulation', true],
    ]);

    const s = (await http(`${app.url}/api/stats/paper-pat`)).body as Stats;
    // The provisioned wallet is pat's one verified wallet; it never traded.
    expect(s).toMatchObject({ wallets: 1, rankedWallets: 0, followers: 0, totalVolume: 0, totalTrades: 0 });
    expect(s.orders).toEqual({ filledOrders: 0, volume: 0 });
    expect(s.onChain).toEqual({
      totalVolume: 0,
      totalTrades: 0,
      winCount: 0,
      lossCount: 0,
      realizedPnl: 0,
      unrealizedPnl: 0,
      totalPnl: 0,
      firstTradeAt: null,
      lastTradeAt: null,
    });
    expect((await pat.get('/api/stats')).body).toEqual(s);
    const g = await gql(app, UserStatsDocument, { userId: 'paper-pat' });
    expect(g.body.data?.userStats).toMatchObject({ orders: { filledOrders: 0, volume: 0 }, totalVolume: 0 });
    // No rank: neither the paper orders nor the unverified import make pat a trader.
    const mine = (await me(pat)).body as Me;
    expect(mine).toMatchObject({ rank: null, me: null });
    expect(mine.traderIds).not.toContain(U);
    // The public board is the venues' traders: the paper orders added no row and moved none.
    expect(await board()).toEqual(before);
  });

  it('a live order counts where the paper one did not', async () => {
    await app.services.db.prisma.order.create({
      data: {
        userId: 'paper-pat',
        venue: 'venue_b',
        marketId: 'venue_b:x',
        venueMarketId: 'x',
        outcome: 'yes',
        side: 'buy',
        orderType: 'market',
        mode: 'live',
        requestedSizeMicros: 10_000_000n,
        filledSizeMicros: 10_000_000n,
        notionalMicros: 4_000_000n,
        state: 'filled',
      },
    });
    const s = (await http(`${app.url}/api/stats/paper-pat`)).body as Stats;
    expect(s).toMatchObject({ orders: { filledOrders: 1, volume: 4 }, totalVolume: 4, totalTrades: 1 });
  });
});
