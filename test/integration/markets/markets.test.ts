import {
  MarketDetailDocument,
  type MarketDetailQuery,
  type MarketHoldersQuery,
  type MarketTradesQuery,
} from '../../../schema/generated/operations';
import type { WorldCoreEvent } from '../../../src/venues';
import { http, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';
import { activeMatchedEvent, pinnedWorld, PINNED_NOW, type PinnedWorld } from '../../support/pinned-world';

type TradePage = MarketTradesQuery['market']['trades'];
type Holders = MarketHoldersQuery['market']['holders'];
type Detail = MarketDetailQuery['market'];

let app: TestApp;
let pinned: PinnedWorld;
let event: WorldCoreEvent;
let aId: string;
let bId: string;

beforeAll(async () => {
  pinned = pinnedWorld();
  app = await startTestApp({}, {}, pinned);
  event = activeMatchedEvent(pinned.world);
  aId = event.markets[0].venueMarketIds.venue_a!;
  bId = event.markets[0].venueMarketIds.venue_b!;
});
afterAll(async () => {
  await app.close();
});

const get = (path: string) => http(`${app.url}/api/markets/${path}`);

describe('GET /api/markets/{venue}/{marketId}/detail', () => {
  it('serves the whole detail screen in one response', async () => {
    const r = await get(`venue_a/${aId}/detail?chartPoints=48`);
    expect(r.status).toBe(200);
    const d = r.body as Detail;
    expect(d).toMatchObject({
      id: `venue_a:${aId}`,
      venue: 'venue_a',
      marketId: aId,
      eventId: event.id,
      event: { id: event.id, slug: event.slug },
    });
    expect(d.orderBook.bids.length).toBeGreaterThan(0);
    expect(d.orderBook.asks.length).toBeGreaterThan(0);
    expect(d.orderBook.bids.length).toBeLessThanOrEqual(10);
    expect(d.orderBook.bids.map((l) => l.price)).toEqual(
      [...d.orderBook.bids.map((l) => l.price)].sort((a, b) => b - a),
    );
    expect(d.orderBook.asks.map((l) => l.price)).toEqual(
      [...d.orderBook.asks.map((l) => l.price)].sort((a, b) => a - b),
    );
    expect(d.orderBook.spread).toBeCloseTo(d.orderBook.asks[0].price - d.orderBook.bids[0].price, 6);
    expect(d.orderBook.timestamp).toBe(new Date(PINNED_NOW).toISOString());
    expect(d.trades.data).toHaveLength(20);
    expect(
      d.trades.data.every((t) => t.marketId === aId && t.eventId === event.id && t.traderId?.startsWith('0x')),
    ).toBe(true);
    const times = d.trades.data.map((t) => Date.parse(t.filledAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(d.chart).toMatchObject({
      interval: '1h',
      bucketSeconds: 3600,
      kind: 'points',
      to: Math.floor(PINNED_NOW / 1000),
    });
    expect(d.chart.candles).toHaveLength(48);
    expect(d.chart.candles.every((c) => c.t % 3600 === 0 && c.v === null)).toBe(true);
    // The counterpart is the same question on venue_b (the world's ground truth), with the price gap.
    expect(d.counterpart!.market).toMatchObject({ venue: 'venue_b', marketId: bId });
    expect(d.counterpart!.similarity).toBeGreaterThan(0);
    expect(d.counterpart!.priceDifference).toBeCloseTo(d.yesPrice! - d.counterpart!.market.yesPrice!, 6);
    expect(d.holderSummary).toMatchObject({ supported: true, reason: null });
    expect(d.holderSummary.holders).toBe(d.holderSummary.yesHolders + d.holderSummary.noHolders);
    expect(d.holderSummary.top.length).toBeLessThanOrEqual(5);
    expect(d.holderSummary.topShare).toBeGreaterThan(0);
  });

  it('shows venue_b with OHLCV candles and no holder identities; no counterpart for a single-venue event', async () => {
    const d = (await get(`venue_b/${bId}/detail`)).body as Detail;
    expect(d.chart.candles).toHaveLength(60);
    expect(d.chart.kind).toBe('ohlcv');
    expect(d.counterpart!.market).toMatchObject({ venue: 'venue_a', marketId: aId });
    expect(d.holderSummary).toMatchObject({ supported: false, holders: 0, reason: expect.stringContaining('venue_b') });
    const single = pinned.world.coreEvents.find((e) => e.sourceType === 'venue_a_only')!;
    const s = await get(`venue_a/${single.markets[0].venueMarketIds.venue_a}/detail?chartPoints=8`);
    expect(s.status).toBe(200);
    expect((s.body as Detail).counterpart).toBeNull();
  });

  it('is the same answer as the GraphQL query the route runs', async () => {
    const rest = await get(`venue_a/${aId}/detail?chartPoints=12`);
    const viaGraphql = await gql(app, MarketDetailDocument, { venue: 'venue_a', marketId: aId, chartPoints: 12 });
    expect(viaGraphql.body.data!.market).toEqual(rest.body);
  });

  it('is a 503 while the venue is down', async () => {
    pinned.world.setVenueDown('venue_a', true);
    try {
      const r = await get(`venue_a/${aId}/detail`);
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ error: 'unavailable', message: 'venue_a is unavailable' });
    } finally {
      pinned.world.setVenueDown('venue_a', false);
    }
  });
});

describe('GET /api/markets/{venue}/{marketId}/holders', () => {
  it('lists venue_a holders with wallet identities, largest first', async () => {
    const r = await get(`venue_a/${aId}/holders?limit=5`);
    expect(r.status).toBe(200);
    const h = r.body as Holders;
    expect(h).toMatchObject({ venue: 'venue_a', supported: true, reason: null, limit: 5 });
    expect(h.data).toHaveLength(5);
    expect(h.data.every((x) => /^0x[0-9a-f]{40}$/.test(x.wallet) && ['yes', 'no'].includes(x.outcome))).toBe(true);
    expect(h.data.map((x) => x.size)).toEqual([...h.data.map((x) => x.size)].sort((a, b) => b - a));
    expect(((await get(`venue_a/${aId}/holders`)).body as Holders).limit).toBe(50);
  });

  it('answers venue_b with an empty list and the reason, not an error', async () => {
    const r = await get(`venue_b/${bId}/holders`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      venue: 'venue_b',
      supported: false,
      data: [],
      reason: expect.stringContaining('identities'),
    });
  });
});

describe('GET /api/markets/{venue}/{marketId}/trades', () => {
  it('pages public trades newest first', async () => {
    const ten = (await get(`venue_a/${aId}/trades?limit=10`)).body as TradePage;
    expect(ten).toMatchObject({ limit: 10, offset: 0, hasMore: true });
    const first = (await get(`venue_a/${aId}/trades?limit=5`)).body as TradePage;
    const second = (await get(`venue_a/${aId}/trades?limit=5&offset=5`)).body as TradePage;
    expect([...first.data, ...second.data]).toEqual(ten.data);
    const times = ten.data.map((t) => Date.parse(t.filledAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const b = (await get(`venue_b/${bId}/trades?limit=3`)).body as TradePage;
    expect(b.data).toHaveLength(3);
    expect(b.data.every((t) => t.traderId === null)).toBe(true);
    expect(((await get(`venue_a/${aId}/trades`)).body as TradePage).data).toHaveLength(50);
  });
});

describe('market screen inputs', () => {
  const screens = ['detail', 'holders', 'trades'];

  it.each(screens)('%s: 400 for an unknown venue, 404 for an unknown market', async (screen) => {
    const bad = await get(`venue_c/${aId}/${screen}`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'bad_request', message: expect.stringMatching(/^venue: /) });
    const missing = await get(`venue_a/0xdeadbeef/${screen}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'not_found', message: 'market venue_a:0xdeadbeef not found' });
    // A venue_b id under venue_a is unknown too: the catalog keys markets by venue.
    expect((await get(`venue_a/${bId}/${screen}`)).status).toBe(404);
  });

  it.each([
    ['detail?chartPoints=7', 'chartPoints'],
    ['detail?chartPoints=241', 'chartPoints'],
    ['detail?chartPoints=ten', 'chartPoints'],
    ['holders?limit=0', 'limit'],
    ['holders?limit=201', 'limit'],
    ['trades?limit=0', 'limit'],
    ['trades?limit=501', 'limit'],
    ['trades?offset=-1', 'offset'],
    ['trades?offset=10001', 'offset'],
  ])('400 naming the field for %s', async (qs, field) => {
    const r = await get(`venue_a/${aId}/${qs}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'bad_request', message: expect.stringMatching(new RegExp(`^${field}: `)) });
  });

  it('accepts the bounds themselves', async () => {
    for (const qs of [
      'detail?chartPoints=8',
      'detail?chartPoints=240',
      'holders?limit=1',
      'holders?limit=200',
      'trades?limit=500&offset=10000',
    ]) {
      expect((await get(`venue_a/${aId}/${qs}`)).status).toBe(200);
    }
  });

  it('applies the same bounds to GraphQL callers', async () => {
    const q = (sel: string) => gql(app, `{ market(venue: venue_a, marketId: "${aId}") { ${sel} } }`);
    for (const [sel, field] of [
      ['chart(points: 7) { from }', 'points'],
      ['holders(limit: 201) { limit }', 'limit'],
      ['trades(offset: 10001) { limit }', 'offset'],
      ['orderBook(depth: 51) { mid }', 'depth'],
    ]) {
      const r = await q(sel);
      expect(r.body.errors![0]).toMatchObject({
        message: expect.stringMatching(new RegExp(`^${field}: `)),
        extensions: { code: 'bad_request' },
      });
    }
  });
});
