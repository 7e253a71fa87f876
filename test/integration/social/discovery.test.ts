import type { CreateEventCommentMutation, SocialOverviewQuery } from '../../../schema/generated/operations';
import { TradeIngestService } from '../../../src/modules/ingestion/trade-ingest.service';
import type { PublicTrade } from '../../../src/venues/venue.models';
import { http, startTestApp, type TestApp } from '../../support/app';
import { publicTrade } from '../../support/trades';
import { wallets } from '../../support/wallets';

let app: TestApp;
const [W1, W2, W3] = wallets('1', '2', '3');
let m1: string;
let m2: string;

beforeAll(async () => {
  app = await startTestApp({ SIM_BACKFILL_TRADES: '2' });
  const markets = await app.services.db.prisma.market.findMany({
    where: { venue: 'venue_a' },
    take: 2,
    orderBy: { id: 'asc' },
  });
  [m1, m2] = markets.map((m) => m.venueMarketId) as [string, string];
  let n = 0;
  const t = (trader: string, market: string, side: 'buy' | 'sell', size: number): PublicTrade =>
    publicTrade({
      venueTradeId: `disc-${(n += 1)}`,
      venueMarketId: market,
      venueTraderId: trader,
      side,
      size,
      filledAt: new Date(Date.now() - 60_000 + n),
    });
  await app.services
    .get(TradeIngestService)
    .ingest([t(W1, m1, 'buy', 5), t(W2, m1, 'buy', 9), t(W2, m2, 'buy', 3), t(W2, m2, 'sell', 3), t(W3, m1, 'buy', 1)]);
  for (const w of [W1, W2]) {
    await app.as('discoverer').post('/api/follows', { venue: 'venue_a', traderId: w });
  }
});
afterAll(async () => {
  await app.close();
});

describe('POST /api/social/friends-traded', () => {
  const ask = (json: unknown) => app.as('discoverer').post('/api/social/friends-traded', json);

  it(
    'lists followed traders holding each market, largest first (closed positions and strangers ' + 'excluded)',
    async () => {
      const r = await ask({
        markets: [
          { venue: 'venue_a', marketId: m1 },
          { venue: 'venue_a', marketId: m2 },
          { venue: 'venue_b', marketId: 'X' },
        ],
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual([
        {
          venue: 'venue_a',
          marketId: m1,
          traders: [
            { traderId: W2, outcome: 'yes', size: 9, avgPrice: 0.5 },
            { traderId: W1, outcome: 'yes', size: 5, avgPrice: 0.5 },
          ],
        },
        { venue: 'venue_a', marketId: m2, traders: [] },
        { venue: 'venue_b', marketId: 'X', traders: [] },
      ]);
    },
  );

  it('400 beyond the bound or malformed; 401 without bearer', async () => {
    const many = Array.from({ length: 51 }, (_, i) => ({ venue: 'venue_a', marketId: `m${i}` }));
    expect((await ask({ markets: many })).status).toBe(400);
    expect((await ask({ markets: [] })).status).toBe(400);
    expect((await ask({ markets: [{ venue: 'nyse', marketId: 'x' }] })).status).toBe(400);
    expect((await ask({})).status).toBe(400);
    const anon = await http(`${app.url}/api/social/friends-traded`, {
      method: 'POST',
      json: { markets: [{ venue: 'venue_a', marketId: m1 }] },
    });
    expect(anon.status).toBe(401);
  });
});

describe('GET /api/social/overview', () => {
  it('serves top traders, hot events and active comments in one response', async () => {
    const slug = app.services.world.coreEvents[0].slug;
    const c = (await app.as('discoverer').post(`/api/events/${slug}/comments`, { body: 'hot take' }))
      .body as CreateEventCommentMutation['createEventComment'];
    await app.as('discoverer').post(`/api/events/${slug}/comments`, { body: 'reply', parentId: c.id });
    const r = await http(`${app.url}/api/social/overview?size=5`);
    expect(r.status).toBe(200);
    const body = r.body as SocialOverviewQuery['socialOverview'];
    expect(body.topTraders).toHaveLength(5);
    expect(body.topTraders.map((t) => t.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(body.hotEvents).toHaveLength(5);
    expect(body.activeComments[0]).toMatchObject({ id: c.id, replyCount: 1 });
    expect((await http(`${app.url}/api/social/overview?size=51`)).status).toBe(400);
  });

  // Its SQL statements, few against many traders, comments and events: overview.test.ts.
});
