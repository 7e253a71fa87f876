import type { CommentFieldsFragment, CommentPageFieldsFragment } from '../../../schema/generated/operations';
import { TradeIngestService } from '../../../src/modules/ingestion/trade-ingest.service';
import { bearer, http, NO_BACKGROUND_TIMERS, startTestApp, type TestApp } from '../../support/app';
import { lastData, postStream } from '../../support/execution-stream';
import { startFakeVenues, type FakeVenues } from '../../support/fake-venues';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';

/**
 * Every trade id the service shows is a comment target: a market's trades page (read from the
 * venue, not stored as a trade), the portfolio history's `fill:` and `trade:` ids; an id it never
 * showed is 404.
 */
type Comment = CommentFieldsFragment;
type Page = CommentPageFieldsFragment;
interface TradeRow {
  id: string;
}

const comments = (app: TestApp, tradeId: string) =>
  http(`${app.url}/api/trades/${encodeURIComponent(tradeId)}/comments`);
const comment = async (app: TestApp, tradeId: string, body: string, user = 'commenter') =>
  http(`${app.url}/api/trades/${encodeURIComponent(tradeId)}/comments`, {
    method: 'POST',
    json: { body },
    headers: await app.bearer(user),
  });

describe("a live venue_a market's trades page", () => {
  const FED_25 = '0x1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f801';
  let fake: FakeVenues;
  let app: TestApp;
  beforeAll(async () => {
    fake = await startFakeVenues();
    app = await startTestApp({
      ...fake.env,
      ...NO_BACKGROUND_TIMERS,
      CATALOG_SYNC_MS: '0',
      VENUE_TRADES_POLL_MS: '3600000',
      VENUE_HTTP_RETRIES: '0',
    });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  it('lists ids that can be commented on (GET 200, POST 201); a made-up id is 404', async () => {
    // Published on the venue after start: only the page shows it (no poll stores it).
    const venueTradeId = fake.addTrade('venue_a', {
      venueMarketId: FED_25,
      side: 'buy',
      outcome: 'yes',
      price: 0.62,
      size: 10,
    });
    const page = await http(`${app.url}/api/markets/venue_a/${FED_25}/trades?limit=5`);
    expect(page.status).toBe(200);
    const ids = (page.body as { data: TradeRow[] }).data.map((t) => t.id);
    // venue_a's trade id is the fill's transaction hash with the taker, side and token.
    const listed = ids.find((id) => id.startsWith(`venue_a:${venueTradeId}:`))!;
    expect(listed).toBeDefined();
    // Read from the venue, not stored as a trade.
    expect(await app.services.db.prisma.trade.count({ where: { venue: 'venue_a' } })).toBe(0);

    for (const id of ids) {
      const read = await comments(app, id);
      expect([id, read.status]).toEqual([id, 200]);
    }
    const created = await comment(app, listed, 'Big buy');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tradeId: listed, body: 'Big buy' });
    const thread = (await comments(app, listed)).body as Page;
    expect(thread.data.map((c) => c.id)).toEqual([(created.body as Comment).id]);

    const madeUp = `venue_a:0x${'5'.repeat(64)}`;
    const missing = await comment(app, madeUp, 'nothing here');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'not_found' });
    expect((await comments(app, madeUp)).status).toBe(404);
    // A trade the venue holds but the service never listed is no target either.
    fake.addTrade('venue_a', { venueMarketId: FED_25, side: 'sell', outcome: 'no', price: 0.4, size: 1 });
    const t = fake.data.venueA.trades[0];
    const unlisted = `venue_a:${t.transactionHash.toLowerCase()}:${t.asset}:${t.side}`;
    expect((await comments(app, unlisted)).status).toBe(404);
    // Once a page lists it, it is a target.
    const next = await http(`${app.url}/api/markets/venue_a/${FED_25}/trades?limit=1`);
    expect((next.body as { data: TradeRow[] }).data.map((x) => x.id)).toEqual([unlisted]);
    expect((await comments(app, unlisted)).status).toBe(200);
  });
});

describe('portfolio history ids and stored trades', () => {
  const pinned = pinnedWorld();
  const marketB = activeMatchedEvent(pinned.world).markets[0].venueMarketIds.venue_b!;
  const wallet = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({}, {}, pinned);
  });
  afterAll(() => app.close());

  const history = async (user: string, mode: 'live' | 'simulation') => {
    const r = await http(`${app.url}/api/portfolio/history?mode=${mode}`, { headers: await app.bearer(user) });
    expect(r.status).toBe(200);
    return (r.body as { data: { id: string; source: string }[] }).data;
  };

  it('a fill: id of the history can be commented on, and keeps its id', async () => {
    const r = await postStream(
      `${app.url}/execute`,
      { mode: 'simulation', marketId: `venue_b:${marketB}`, side: 'buy', outcome: 'yes', size: 3 },
      await app.bearer('paper-trader'),
    );
    expect(lastData(r).event).toBe('completed');
    const fillId = (await history('paper-trader', 'simulation')).find((t) => t.source === 'service')!.id;
    expect(fillId).toMatch(/^fill:/);
    const created = await comment(app, fillId, 'My first paper trade', 'paper-trader');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tradeId: fillId });
    expect(((await comments(app, fillId)).body as Page).total).toBe(1);
    // An unknown fill, or a fill id without its prefix, is no target.
    expect((await comment(app, 'fill:00000000-0000-4000-8000-000000000000', 'x')).status).toBe(404);
    expect((await comments(app, fillId.slice('fill:'.length))).status).toBe(404);
  });

  it('a trade: id of the history and its venue:venueTradeId show one thread', async () => {
    const user = app.as('wallet-owner');
    expect((await user.post('/api/wallets/import', { chain: 'polygon', address: wallet })).status).toBe(201);
    const market = await app.services.db.prisma.market.findFirstOrThrow({ where: { venue: 'venue_a' } });
    await app.services.get(TradeIngestService).ingest([
      {
        venue: 'venue_a',
        venueTradeId: '0xonchain-fill-1',
        venueMarketId: market.venueMarketId,
        venueTraderId: wallet.toLowerCase(),
        side: 'buy',
        outcome: 'yes',
        price: 0.4,
        size: 5,
        filledAt: new Date(),
      },
    ]);
    const tradeId = (await history('wallet-owner', 'live')).find((t) => t.source === 'wallet')!.id;
    expect(tradeId).toMatch(/^trade:/);
    const viaHistory = await comment(app, tradeId, 'From my wallet', 'wallet-owner');
    expect(viaHistory.status).toBe(201);
    expect(viaHistory.body).toMatchObject({ tradeId: 'venue_a:0xonchain-fill-1' });
    const viaVenue = await comment(app, 'venue_a:0xonchain-fill-1', 'Seen on the stream');
    expect(viaVenue.status).toBe(201);
    const both = [(viaVenue.body as Comment).id, (viaHistory.body as Comment).id];
    for (const id of [tradeId, 'venue_a:0xonchain-fill-1']) {
      const page = (await comments(app, id)).body as Page;
      expect([id, page.data.map((c) => c.id)]).toEqual([id, both]);
    }
    // A reply through one id joins the thread the other id shows.
    const reply = await http(`${app.url}/api/trades/${encodeURIComponent(tradeId)}/comments`, {
      method: 'POST',
      json: { body: 'Agreed', parentId: (viaVenue.body as Comment).id },
      headers: bearer(await app.token('wallet-owner')),
    });
    expect(reply.status).toBe(201);
    expect((await comment(app, 'trade:00000000-0000-4000-8000-000000000000', 'x')).status).toBe(404);
  });
});
