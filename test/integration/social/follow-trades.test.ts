import { randomUUID } from 'node:crypto';
import { FollowTradesService } from '../../../src/modules/social/traders';
import type { EventHistoryQuery, FollowTradesQuery } from '../../../schema/generated/operations';
import { bearer, http, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';
import { activeMatchedEvent, pinnedWorld, PINNED_NOW } from '../../support/pinned-world';
import { statementsOf } from './statements';
import { HistoryService } from '../../../src/modules/charts/charts.service';
import { EventsService } from '../../../src/modules/events/events.service';
import { wallets } from '../../support/wallets';

type Overlay = FollowTradesQuery['followTrades'];
type History = EventHistoryQuery['event']['history'];

const NOW_S = Math.floor(PINNED_NOW / 1000);
/** Start of the hour bucket three hours before the pinned clock. */
const T0 = Math.floor(NOW_S / 3600) * 3600 - 3 * 3600;
const at = (secondsAfterT0: number) => new Date((T0 + secondsAfterT0) * 1000);
const [A, B, C, D, E, F, X] = wallets('a', 'b', 'c', 'd', 'e', 'f', '9');

let app: TestApp;
let fan: string;
let stranger: string;
let eventId: string;
let slug: string;
let m1: string;
let vb: string;
let elsewhere: string;

beforeAll(async () => {
  const pinned = pinnedWorld();
  app = await startTestApp({}, {}, pinned);
  const e = activeMatchedEvent(pinned.world);
  eventId = e.id;
  slug = e.slug;
  const prisma = app.services.db.prisma;
  const markets = await prisma.market.findMany({ where: { coreEventId: eventId }, orderBy: { venueMarketId: 'asc' } });
  m1 = markets.find((m) => m.venue === 'venue_a')!.venueMarketId;
  vb = markets.find((m) => m.venue === 'venue_b')!.venueMarketId;
  elsewhere = (await prisma.market.findFirstOrThrow({ where: { venue: 'venue_a', coreEventId: { not: eventId } } }))
    .venueMarketId;
  fan = await app.token('fan');
  stranger = await app.token('stranger');
  for (const traderId of [A, B, C, D, E, F]) await follow(fan, 'venue_a', traderId);
  await follow(fan, 'venue_b', 'handle_b');

  const row = (
    venue: 'venue_a' | 'venue_b',
    marketId: string,
    trader: string | null,
    side: 'buy' | 'sell',
    outcome: 'yes' | 'no',
    size: string,
    price: string,
    filledAt: Date,
  ) => ({
    venue,
    venueTradeId: randomUUID(),
    venueMarketId: marketId,
    venueTraderId: trader,
    side,
    outcome,
    size,
    price,
    filledAt,
  });
  // Hand-built trades, written straight to the trades table.
  await prisma.trade.createMany({
    data: [
      // Bucket T0, buy YES on m1: A twice (15 @ avg 0.433333), B 12, C 3 on the bucket's last millisecond.
      row('venue_a', m1, A, 'buy', 'yes', '10', '0.40', at(5 * 60)),
      row('venue_a', m1, A, 'buy', 'yes', '5', '0.50', at(50 * 60)),
      row('venue_a', m1, B, 'buy', 'yes', '12', '0.45', at(10 * 60)),
      row('venue_a', m1, C, 'buy', 'yes', '3', '0.50', new Date((T0 + 3600) * 1000 - 1)),
      // Not followed: never shown, whatever its size.
      row('venue_a', m1, X, 'buy', 'yes', '100', '0.50', at(20 * 60)),
      // Same bucket, other outcome, other side: bubbles of their own.
      row('venue_a', m1, A, 'buy', 'no', '7', '0.30', at(30 * 60)),
      row('venue_a', m1, B, 'sell', 'yes', '4', '0.60', at(40 * 60)),
      // The next bucket starts exactly at T0 + 1h.
      row('venue_a', m1, C, 'buy', 'yes', '1', '0.50', at(3600)),
      // T0 + 2h: equal sizes, ties broken by notional, then by trader id.
      row('venue_a', m1, D, 'buy', 'yes', '8', '0.50', at(2 * 3600 + 60)),
      row('venue_a', m1, F, 'buy', 'yes', '8', '0.60', at(2 * 3600 + 120)),
      row('venue_a', m1, E, 'buy', 'yes', '8', '0.60', at(2 * 3600 + 180)),
      // Another event's market, and a venue_b trade under a followed handle: neither appears.
      row('venue_a', elsewhere, A, 'buy', 'yes', '50', '0.50', at(15 * 60)),
      row('venue_b', vb, 'handle_b', 'buy', 'yes', '50', '0.50', at(15 * 60)),
      // Before the requested range.
      row('venue_a', m1, A, 'buy', 'yes', '9', '0.50', at(-3 * 3600)),
    ],
  });
});
afterAll(async () => {
  await app.close();
});

async function follow(token: string, venue: string, traderId: string) {
  const r = await http(`${app.url}/api/follows`, { method: 'POST', headers: bearer(token), json: { venue, traderId } });
  expect(r.status).toBe(201);
}

const get = (qs: string, token: string | null = fan, ref = eventId) =>
  http(`${app.url}/api/events/${ref}/follow-trades${qs ? `?${qs}` : ''}`, {
    headers: token ? bearer(token) : {},
  });
const range = `interval=1h&from=${T0 - 3600}&to=${T0 + 3 * 3600 - 1}`;
const market = (o: Overlay, venue: string, id: string) =>
  o.markets.find((m) => m.venue === venue && m.marketId === id)!;

describe('GET /api/events/{eventId}/follow-trades', () => {
  it('groups followed traders’ trades by bucket, venue, market, side and outcome (hand-computed)', async () => {
    const r = await get(range);
    expect(r.status).toBe(200);
    const o = r.body as Overlay;
    expect(o).toMatchObject({ eventId, interval: '1h', bucketSeconds: 3600, topN: 5 });
    const bubbles = market(o, 'venue_a', m1).bubbles;
    expect(bubbles.map((b) => [b.t, b.side, b.outcome, b.traderCount])).toEqual([
      [T0, 'buy', 'no', 1],
      [T0, 'buy', 'yes', 3],
      [T0, 'sell', 'yes', 1],
      [T0 + 3600, 'buy', 'yes', 1],
      [T0 + 7200, 'buy', 'yes', 3],
    ]);
    expect(bubbles[1]).toEqual({
      t: T0,
      venue: 'venue_a',
      marketId: m1,
      side: 'buy',
      outcome: 'yes',
      traderCount: 3,
      trades: 4,
      size: 30,
      notional: 13.4,
      traders: [
        { traderId: A, size: 15, notional: 6.5, avgPrice: 0.433333, trades: 2 },
        { traderId: B, size: 12, notional: 5.4, avgPrice: 0.45, trades: 1 },
        { traderId: C, size: 3, notional: 1.5, avgPrice: 0.5, trades: 1 },
      ],
    });
    // Equal sizes: larger notional first (E and F at 0.60 before D), then trader id (E before F).
    expect(bubbles[4].traders.map((t) => t.traderId)).toEqual([E, F, D]);
    // Every market of the event is listed; the other event's trade is not.
    const markets = await app.services.db.prisma.market.count({ where: { coreEventId: eventId } });
    expect(o.markets).toHaveLength(markets);
    expect(o.markets.flatMap((m) => m.bubbles).every((b) => b.marketId !== elsewhere)).toBe(true);
    expect(JSON.stringify(o)).not.toContain(X);
  });

  it('keeps the top N traders by size in each bubble, totals over all of them', async () => {
    for (const [n, expected] of [
      [1, [A]],
      [2, [A, B]],
      [20, [A, B, C]],
    ] as const) {
      const o = (await get(`${range}&topN=${n}`)).body as Overlay;
      expect(o.topN).toBe(n);
      const b = market(o, 'venue_a', m1).bubbles[1];
      expect(b.traders.map((t) => t.traderId)).toEqual(expected);
      expect([b.traderCount, b.trades, b.size, b.notional]).toEqual([3, 4, 30, 13.4]);
    }
  });

  it('has no venue_b bubbles: its public feed carries no trader identity', async () => {
    const o = (await get(range)).body as Overlay;
    const b = market(o, 'venue_b', vb);
    expect(b).toMatchObject({ traderIdentity: false, bubbles: [] });
    expect(
      o.markets.filter((m) => m.venue === 'venue_b').every((m) => !m.traderIdentity && m.bubbles.length === 0),
    ).toBe(true);
  });

  it('snaps bubbles exactly as history snaps candles (same defaults, same buckets)', async () => {
    for (const interval of ['1m', '5m', '1h', '1d', '1w']) {
      const qs = `interval=${interval}&from=${T0 - 3600}&to=${T0 + 3 * 3600 - 1}`;
      const [f, h] = [
        (await get(qs)).body as Overlay,
        (await http(`${app.url}/api/events/${eventId}/history?${qs}`)).body as History,
      ];
      expect([f.interval, f.bucketSeconds, f.from, f.to]).toEqual([h.interval, h.bucketSeconds, h.from, h.to]);
      const candles = new Set(
        h.markets.find((m) => m.venue === 'venue_a' && m.marketId === m1)!.candles.map((c) => c.t),
      );
      const bubbles = market(f, 'venue_a', m1).bubbles;
      expect(bubbles.length).toBeGreaterThan(0);
      for (const b of bubbles) expect(candles).toContain(b.t);
    }
    // Defaults (interval 1h, from = now − 7 d, to = now) are history's.
    const [f, h] = [
      (await get('')).body as Overlay,
      (await http(`${app.url}/api/events/${eventId}/history`)).body as History,
    ];
    expect([f.interval, f.bucketSeconds, f.from, f.to, f.topN]).toEqual([h.interval, h.bucketSeconds, h.from, h.to, 5]);
    expect(f.to).toBe(NOW_S);
    // The default week holds the trade before T0 too: A's bubble at T0 − 3h.
    expect(market(f, 'venue_a', m1).bubbles[0]).toMatchObject({
      t: T0 - 3 * 3600,
      traders: [{ traderId: A, size: 9 }],
    });
  });

  it('accepts the event slug as well as its id', async () => {
    const r = await get(range, fan, slug);
    expect(r.status).toBe(200);
    expect((r.body as Overlay).eventId).toBe(eventId);
  });

  it('is empty for a caller who follows nobody', async () => {
    const o = (await get(range, stranger)).body as Overlay;
    expect(o.markets.every((m) => m.bubbles.length === 0)).toBe(true);
  });

  it('401 without or with a bad bearer token', async () => {
    expect((await get(range, null)).status).toBe(401);
    expect((await get(range, 'not-a-jwt')).status).toBe(401);
  });

  it('404 for an unknown event', async () => {
    const r = await get(range, fan, 'no-such-event');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'not_found', message: expect.any(String) });
  });

  it.each([
    ['topN=0', 'topN'],
    ['topN=21', 'topN'],
    ['topN=2.5', 'topN'],
    ['topN=x', 'topN'],
    ['interval=2h', 'interval'],
    ['from=-1', 'from'],
    ['to=99999999999', 'to'],
    [`from=${NOW_S}&to=${NOW_S - 60}`, 'from'],
    [`interval=1m&from=${NOW_S - 5000 * 60}&to=${NOW_S}`, 'from'],
  ])('400 naming the field for %s', async (qs, field) => {
    const r = await get(qs);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'bad_request', message: expect.stringMatching(new RegExp(`^${field}: `)) });
  });

  it('accepts the bounds: topN 1 and 20', async () => {
    expect((await get(`${range}&topN=1`)).status).toBe(200);
    expect((await get(`${range}&topN=20`)).status).toBe(200);
  });

  it('answers GraphQL the same way, 400 on a bad topN', async () => {
    const query =
      `query($e: String!, $n: Int) { followTrades(eventId: $e, interval: "1h", from: ${T0}, to: ` +
      `${T0 + 3599}, topN: $n) { markets { venue marketId bubbles { t traders { traderId } } } } }`;
    const overlay = (n: number) =>
      gql<Pick<FollowTradesQuery, 'followTrades'>>(app, query, { e: eventId, n }, bearer(fan));
    const ok = (await overlay(2)).body;
    const yes = ok.data!.followTrades.markets.find((m) => m.venue === 'venue_a' && m.marketId === m1)!;
    expect(yes.bubbles[1].traders.map((t) => t.traderId)).toEqual([A, B]);
    const bad = (await overlay(0)).body;
    expect(bad.errors![0].extensions.code).toBe('bad_request');
  });

  it('refuses (400 on from) a range holding more followed-trader trades than the bound', async () => {
    const s = app.services;
    // The bucket at T0 holds 6 followed-trader trades (A ×3, B ×2, C): 6 is within a bound of 6, not of 5.
    const q = { interval: '1h', from: T0, to: T0 + 3599 };
    const bounded = (maxTrades: number) =>
      new FollowTradesService(s.db.prisma, s.get(EventsService), s.get(HistoryService), { maxTrades });
    await expect(bounded(5).overlay('fan', eventId, q)).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/^from: /),
    });
    await expect(bounded(6).overlay('fan', eventId, q)).resolves.toMatchObject({ eventId });
  });

  it('runs the same few SQL statements whatever the range, interval or topN', async () => {
    const count = async (qs: string) => {
      await get(qs); // warms the catalog memo, as any earlier request does
      return statementsOf(app, async () => expect((await get(qs)).status).toBe(200));
    };
    const small = await count(`interval=1h&from=${T0}&to=${T0 + 60}&topN=1`);
    const large = await count(`interval=1m&from=${T0 - 3 * 3600}&to=${T0 + 3 * 3600}&topN=20`);
    expect(small).toBe(large);
    expect(small).toBeLessThanOrEqual(2);
  });
});
