import type { CostRundownQuery, CreateRouteMutation } from '../../../schema/generated/operations';
import { VenueUnavailableError } from '../../../src/venues/venue-client';
import { http, startTestApp, type TestApp } from '../../support/app';
import { micros } from '../../support/money';
import { PINNED_NOW, activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';

type CostRundown = CostRundownQuery['costRundown'];
type RouteIntent = CreateRouteMutation['createRoute'];

let app: TestApp;
const pinned = pinnedWorld();
const event = activeMatchedEvent(pinned.world);
beforeAll(async () => {
  app = await startTestApp({}, {}, pinned);
});
afterAll(async () => {
  await app.close();
});
afterEach(() => {
  pinned.world.setVenueDown('venue_a', false);
  pinned.world.setVenueDown('venue_b', false);
  jest.restoreAllMocks();
});

/** Makes the venue fail the books of `marketIds` only (a partial outage); the other books answer. */
const failBooks = (venue: 'venue_a' | 'venue_b', marketIds: string[]) => {
  const client = pinned.world.clients[venue];
  const real = client.getOrderBook.bind(client);
  jest
    .spyOn(client, 'getOrderBook')
    .mockImplementation((id, depth) =>
      marketIds.includes(id)
        ? Promise.reject(new VenueUnavailableError(venue, `${venue} book ${id} timed out`))
        : real(id, depth),
    );
};

const rundown = (query: string) => http(`${app.url}/cost-rundown?${query}`);
const route = (json: unknown) => http(`${app.url}/route`, { method: 'POST', json });
const message = (r: { body: unknown }) => (r.body as { message: string }).message;
/** venue_b's taker fee for one fill, by hand: ceil to the cent of 0.07 × C × p × (1 − p), p in cents. */
const venueBFee = (contracts: number, price: number) => {
  const cents = Math.round(price * 100);
  return Math.ceil((7 * contracts * cents * (100 - cents)) / 10_000) / 100;
};

describe('GET /cost-rundown', () => {
  it.each([
    ['', /^core_id: is required/],
    [`core_id=${event.id}`, /^size: size or amount_usd is required/],
    [`core_id=${event.id}&size=0`, /^size: must be an integer from 1 to/],
    [`core_id=${event.id}&size=2.5`, /^size: must be an integer/],
    [`core_id=${event.id}&size=ten`, /^size: must be an integer/],
    [`core_id=${event.id}&amount_usd=-1`, /^amount_usd: must be a number from 0/],
    [`core_id=${event.id}&amount_usd=0.0000001`, /^amount_usd: /],
    [`core_id=${event.id}&size=5&amount_usd=5`, /^size: give either size or amount_usd/],
    [`core_id=${event.id}&size=5&side=hold`, /^side: must be one of buy, sell/],
  ])('400 naming the field: ?%s', async (query, expected) => {
    const r = await rundown(query);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'bad_request' });
    expect(message(r)).toMatch(expected);
  });

  it('404 for an unknown core id', async () => {
    const r = await rundown('core_id=evt_nope&size=5');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: 'not_found' });
  });

  it('prices every open market on both venues, both outcomes, and names the best venue per question', async () => {
    const r = await rundown(`core_id=${event.id}&size=10`);
    expect(r.status).toBe(200);
    const body = r.body as CostRundown;
    const open = await app.services.db.prisma.market.count({ where: { coreEventId: event.id, status: 'active' } });
    expect(body).toMatchObject({ coreId: event.id, side: 'buy', size: 10, amountUsd: null });
    expect(body.venues.map((v) => [v.venue, v.status])).toEqual([
      ['venue_a', 'ok'],
      ['venue_b', 'ok'],
    ]);
    expect(body.markets).toHaveLength(open);
    for (const m of body.markets) {
      const book = await app.services.venues[m.venue].getOrderBook(m.marketId);
      for (const q of [m.yes, m.no]) {
        expect(q).toMatchObject({ venue: m.venue, side: 'buy', contracts: 10, complete: true });
        expect(q.allInUsd).toBeCloseTo(q.notionalUsd + q.feesUsd, 6);
        expect(q.worstPrice!).toBeGreaterThanOrEqual(q.avgPrice!);
        if (m.venue === 'venue_a') expect(q.feesUsd).toBe(0); // default venue_a schedule
        if (m.venue === 'venue_b' && q.worstPrice === q.avgPrice) expect(q.feesUsd).toBe(venueBFee(10, q.avgPrice!));
      }
      // YES lifts the asks; NO lifts the bids flipped (a NO ask at 1 − the YES bid).
      expect(m.yes.avgPrice!).toBeGreaterThanOrEqual(book.asks[0].price);
      expect(m.no.avgPrice!).toBeGreaterThanOrEqual(1 - book.bids[0].price - 1e-9);
      expect(m.yes.fillableContracts).toBeCloseTo(
        book.asks.reduce((s, l) => s + l.size, 0),
        6,
      );
    }
    // One best entry per question and outcome; it is the cheaper of the pair.
    expect(body.best.length).toBe(2 * event.markets.length);
    for (const b of body.best) {
      expect(b.alternative).not.toBeNull();
      expect(b.allInPrice!).toBeLessThanOrEqual(b.alternative!.allInPrice!);
      expect(b.advantagePerContract).toBeCloseTo(b.alternative!.allInPrice! - b.allInPrice!, 6);
      const pricedHere = body.markets.find((m) => m.marketId === b.marketId)!;
      expect(pricedHere[b.outcome].allInPrice).toBe(b.allInPrice);
    }
  });

  it('spends at most amount_usd, and prices sells as USD received', async () => {
    const buy = (await rundown(`core_id=${event.id}&amount_usd=25`)).body as CostRundown;
    expect(buy.amountUsd).toBe(25);
    for (const m of buy.markets) for (const q of [m.yes, m.no]) expect(q.notionalUsd).toBeLessThanOrEqual(25);
    const sell = (await rundown(`core_id=${event.slug}&size=10&side=sell`)).body as CostRundown;
    expect(sell.coreId).toBe(event.id); // the slug is accepted too
    for (const m of sell.markets) expect(m.yes.allInUsd).toBeCloseTo(m.yes.notionalUsd - m.yes.feesUsd, 6);
  });

  it('amount_usd=0 is a 200: every quote fills nothing and costs nothing', async () => {
    const r = await rundown(`core_id=${event.id}&amount_usd=0`);
    expect(r.status).toBe(200);
    const body = r.body as CostRundown;
    expect(body).toMatchObject({ amountUsd: 0, size: null });
    expect(body.markets.length).toBeGreaterThan(0);
    for (const m of body.markets)
      for (const q of [m.yes, m.no]) expect(q).toMatchObject({ contracts: 0, notionalUsd: 0, feesUsd: 0, allInUsd: 0 });
  });

  it('a venue only partly down: `partial`, naming the markets left out and why', async () => {
    const onA = event.markets.map((m) => m.venueMarketIds.venue_a!).filter(Boolean);
    const failed = onA[0];
    failBooks('venue_a', [failed]);
    const r = await rundown(`core_id=${event.id}&size=10`);
    expect(r.status).toBe(200);
    const body = r.body as CostRundown;
    const a = body.venues.find((v) => v.venue === 'venue_a')!;
    expect(a).toMatchObject({ status: 'partial', failedMarkets: [failed], reason: 'venue_a is unavailable' });
    expect(a.markets).toBeGreaterThan(1);
    expect(body.venues.find((v) => v.venue === 'venue_b')).toMatchObject({
      status: 'ok',
      failedMarkets: [],
      reason: null,
    });
    expect(body.markets.some((m) => m.venue === 'venue_a' && m.marketId === failed)).toBe(false);
    expect(body.markets.filter((m) => m.venue === 'venue_a')).toHaveLength(a.markets - 1);
  });

  it('one venue down: answers for the other and says so; both down: 503', async () => {
    pinned.world.setVenueDown('venue_b', true);
    const one = await rundown(`core_id=${event.id}&size=10`);
    expect(one.status).toBe(200);
    const body = one.body as CostRundown;
    const b = body.venues.find((v) => v.venue === 'venue_b')!;
    expect(b).toMatchObject({ status: 'unavailable', reason: 'venue_b is unavailable' });
    expect(b.failedMarkets).toHaveLength(b.markets);
    expect(body.markets.every((m) => m.venue === 'venue_a')).toBe(true);
    expect(body.best.every((b) => b.venue === 'venue_a' && b.alternative === null)).toBe(true);
    pinned.world.setVenueDown('venue_a', true);
    const both = await rundown(`core_id=${event.id}&size=10`);
    expect(both.status).toBe(503);
    expect(both.body).toMatchObject({ error: 'unavailable' });
  });
});

describe('POST /route', () => {
  const base = { coreId: event.id, userId: 'router', accountId: 'acct-1' };

  it.each([
    [{ userId: 'u', accountId: 'a' }, /^coreId: is required/],
    [{ coreId: event.id, accountId: 'a' }, /^userId: is required/],
    [{ coreId: event.id, userId: 'u' }, /^accountId: is required/],
    [{ ...base, size: -1 }, /^size: /],
    [{ ...base, size: 1.234 }, /^size: must be a number from 0.01 to 1000000 with at most 2 decimals/],
    [{ ...base, size: '5' }, /^size: must be a number/],
    [{ ...base, venue: 'venue_c' }, /^venue: /],
    [{ ...base, outcome: 'maybe' }, /^outcome: /],
    [{ ...base, marketId: 'not-a-market' }, /^marketId: is not a market of event/],
  ])('400 naming the field: %j', async (json, expected) => {
    const r = await route(json);
    expect(r.status).toBe(400);
    expect(message(r)).toMatch(expected);
  });

  it('404: unknown core id, or no open market with the depth', async () => {
    expect((await route({ ...base, coreId: 'evt_nope' })).status).toBe(404);
    const deep = await route({ ...base, size: 1_000_000 });
    expect(deep.status).toBe(404);
    expect(message(deep)).toMatch(/no route found/);
  });

  it('404 "no route found" (not an undeclared 503) when no candidate venue can be priced', async () => {
    pinned.world.setVenueDown('venue_a', true);
    pinned.world.setVenueDown('venue_b', true);
    const r = await route({ ...base, size: 1 });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: 'not_found' });
    expect(message(r)).toMatch(/no route found/);
    expect(message(r)).toMatch(/unavailable/);
    // One venue down: the other is routed.
    pinned.world.setVenueDown('venue_a', false);
    const one = await route({ ...base, size: 1 });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ venue: 'venue_a' });
  });

  it('declares only the statuses the interface allows for /route', async () => {
    const doc = (await http(`${app.url}/openapi.json`)).body as {
      paths: Record<string, { post: { responses: Record<string, unknown> } }>;
    };
    // 429: the per-client limit on stored intents (ROUTE_RATE_LIMIT).
    expect(Object.keys(doc.paths['/route'].post.responses).sort()).toEqual(['200', '400', '404', '429']);
  });

  it('picks the venue with the best all-in price and stores the quoted intent', async () => {
    const r = await route({ ...base, size: 10 });
    expect(r.status).toBe(200);
    const intent = r.body as RouteIntent;
    expect(intent).toMatchObject({
      userId: 'router',
      accountId: 'acct-1',
      coreId: event.id,
      outcome: 'yes',
      side: 'buy',
      size: 10,
    });
    expect(intent.alternatives).toHaveLength(1);
    expect(intent.alternatives[0].venue).not.toBe(intent.venue);
    expect(intent.allInPrice).toBeLessThanOrEqual(intent.alternatives[0].allInPrice!);
    expect(intent.allInCost).toBeCloseTo(intent.notional + intent.fees, 6);
    expect(new Date(intent.expiresAt).getTime()).toBe(PINNED_NOW + 30_000);
    const row = await app.services.db.prisma.routeIntent.findUniqueOrThrow({ where: { id: intent.id } });
    expect(row).toMatchObject({
      venue: intent.venue,
      venueMarketId: intent.marketId,
      marketId: `${intent.venue}:${intent.marketId}`,
      sizeMicros: 10_000_000n,
      quotedPriceMicros: micros(intent.quotedPrice),
      feesMicros: micros(intent.fees),
      allInCostMicros: micros(intent.allInCost),
      orderId: null,
    });
  });

  it("honours the caller's venue or market, and keeps fractional sizes off venue_b", async () => {
    const onA = (await route({ ...base, venue: 'venue_a', outcome: 'no' })).body as RouteIntent;
    expect(onA).toMatchObject({ venue: 'venue_a', outcome: 'no', size: 1, alternatives: [] });
    const bMarket = event.markets[0].venueMarketIds.venue_b!;
    expect((await route({ ...base, marketId: bMarket })).body).toMatchObject({ venue: 'venue_b', marketId: bMarket });
    expect((await route({ ...base, size: 2.5 })).body).toMatchObject({ venue: 'venue_a', size: 2.5 });
    const conflict = await route({ ...base, marketId: bMarket, venue: 'venue_a' });
    expect(conflict.status).toBe(400);
  });
});
