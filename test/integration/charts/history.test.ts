import type { EventHistoryQuery } from '../../../schema/generated/operations';
import { HISTORY_LOOKBACK_SECONDS } from '../../../src/modules/charts';
import { VENUES, type Venue } from '../../../src/venues/venue.models';
import { http, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';
import { activeMatchedEvent, pinnedWorld, PINNED_NOW, type PinnedWorld } from '../../support/pinned-world';

type History = EventHistoryQuery['event']['history'];

const NOW_S = Math.floor(PINNED_NOW / 1000);
let app: TestApp;
let pinned: PinnedWorld;
let eventId: string;
let slug: string;
/** getPriceHistory calls per venue since the last reset: cache hits make none. */
const calls: Record<Venue, number> = { venue_a: 0, venue_b: 0 };

beforeAll(async () => {
  pinned = pinnedWorld();
  app = await startTestApp({}, {}, pinned);
  const e = activeMatchedEvent(pinned.world);
  eventId = e.id;
  slug = e.slug;
  for (const v of VENUES) {
    const client = app.services.venues[v];
    const original = client.getPriceHistory.bind(client);
    client.getPriceHistory = (id, q) => {
      calls[v] += 1;
      return original(id, q);
    };
  }
});
afterAll(async () => {
  await app.close();
});

const get = async (qs: string, ref = eventId) => http(`${app.url}/api/events/${ref}/history${qs ? `?${qs}` : ''}`);
const resetCalls = () => VENUES.forEach((v) => (calls[v] = 0));

describe('GET /api/events/{eventId}/history', () => {
  it('merges both venues into one normalized series per market', async () => {
    const r = await get('interval=1h');
    expect(r.status).toBe(200);
    const h = r.body as History;
    const markets = await app.services.db.prisma.market.findMany({ where: { coreEventId: eventId } });
    expect(h.markets).toHaveLength(markets.length);
    expect(new Set(h.markets.map((m) => m.venue))).toEqual(new Set(VENUES));
    expect(h.failedVenues).toEqual([]);
    expect(h.venues.map((v) => [v.venue, v.status])).toEqual([
      ['venue_a', 'ok'],
      ['venue_b', 'ok'],
    ]);
    for (const m of h.markets) {
      expect(m.candles.length).toBeGreaterThan(100);
      const ts = m.candles.map((c) => c.t);
      expect([...ts].sort((a, b) => a - b)).toEqual(ts);
      expect(new Set(ts).size).toBe(ts.length);
      for (const c of m.candles) {
        expect(c.t % 3600).toBe(0);
        expect(c.l).toBeLessThanOrEqual(Math.min(c.o, c.c));
        expect(c.h).toBeGreaterThanOrEqual(Math.max(c.o, c.c));
        if (m.venue === 'venue_a') {
          expect(m.kind).toBe('points');
          expect([c.o, c.h, c.l]).toEqual([c.c, c.c, c.c]);
          expect(c.v).toBeNull();
        } else {
          expect(m.kind).toBe('ohlcv');
          expect(typeof c.v).toBe('number');
        }
      }
    }
  });

  it('defaults to 1h, now minus the lookback window, and now (by id or slug)', async () => {
    const h = (await get('', slug)).body as History;
    expect(h).toMatchObject({
      eventId,
      interval: '1h',
      bucketSeconds: 3600,
      to: NOW_S,
      from: NOW_S - HISTORY_LOOKBACK_SECONDS['1h'],
    });
    for (const m of h.markets) {
      expect(m.candles.at(-1)!.t).toBe(Math.floor(NOW_S / 3600) * 3600);
      expect(m.candles[0].t).toBeGreaterThanOrEqual(Math.floor(h.from / 3600) * 3600);
      expect(m.candles.length).toBeLessThanOrEqual(169);
    }
    const daily = (await get('interval=1d')).body as History;
    expect(daily).toMatchObject({ interval: '1d', to: NOW_S, from: NOW_S - HISTORY_LOOKBACK_SECONDS['1d'] });
  });

  it('snaps timestamps to the bucket start of the interval', async () => {
    const from = NOW_S - 86_400 + 1234;
    const h = (await get(`interval=5m&from=${from}&to=${NOW_S - 77}`)).body as History;
    for (const m of h.markets) {
      expect(m.candles[0].t).toBe(Math.floor(from / 300) * 300);
      expect(m.candles.at(-1)!.t).toBe(Math.floor((NOW_S - 77) / 300) * 300);
      expect(m.candles.every((c) => c.t % 300 === 0)).toBe(true);
      expect(m.candles).toHaveLength(Math.floor((NOW_S - 77) / 300) - Math.floor(from / 300) + 1);
    }
  });

  it('filters by venue', async () => {
    const h = (await get('venue=venue_b&interval=1d')).body as History;
    expect(h.markets.length).toBeGreaterThan(0);
    expect(h.markets.every((m) => m.venue === 'venue_b')).toBe(true);
    expect(h.venues.map((v) => v.venue)).toEqual(['venue_b']);
  });

  it('serves a repeated request from the cache, keyed by whole buckets', async () => {
    const qs = `interval=1h&from=${NOW_S - 3 * 86_400}&to=${NOW_S - 600}`;
    resetCalls();
    const first = await get(qs);
    const markets = (first.body as History).markets.length;
    expect(calls.venue_a + calls.venue_b).toBe(markets);
    resetCalls();
    const again = await get(qs);
    expect(again.body).toEqual(first.body);
    expect(calls.venue_a + calls.venue_b).toBe(0);
    // Another `to` in the same hour is the same cache entry.
    resetCalls();
    await get(`interval=1h&from=${NOW_S - 3 * 86_400}&to=${NOW_S - 700}`);
    expect(calls.venue_a + calls.venue_b).toBe(0);
    // Another bucket range is not.
    resetCalls();
    await get(`interval=1h&from=${NOW_S - 4 * 86_400}&to=${NOW_S - 600}`);
    expect(calls.venue_a + calls.venue_b).toBe(markets);
  });

  it('answers with the other venue when one fails, says which, and does not cache the failure', async () => {
    const qs = `interval=5m&from=${NOW_S - 7200}&to=${NOW_S - 3600}`;
    pinned.world.setVenueDown('venue_a', true);
    try {
      const r = await get(qs);
      expect(r.status).toBe(200);
      const h = r.body as History;
      expect(h.failedVenues).toEqual(['venue_a']);
      expect(h.markets.length).toBeGreaterThan(0);
      expect(h.markets.every((m) => m.venue === 'venue_b')).toBe(true);
      expect(h.venues.find((v) => v.venue === 'venue_a')).toMatchObject({
        status: 'failed',
        error: expect.stringContaining('venue_a'),
      });
      expect(h.venues.find((v) => v.venue === 'venue_b')).toMatchObject({ status: 'ok', error: null });
    } finally {
      pinned.world.setVenueDown('venue_a', false);
    }
    resetCalls();
    const h = (await get(qs)).body as History;
    expect(h.failedVenues).toEqual([]);
    expect(h.markets.some((m) => m.venue === 'venue_a')).toBe(true);
    expect(calls.venue_a).toBeGreaterThan(0); // asked again: the failure was not cached
    expect(calls.venue_b).toBe(0); // the venue that answered was cached
  });

  it('is a 503 when every venue fails', async () => {
    for (const v of VENUES) pinned.world.setVenueDown(v, true);
    try {
      const r = await get(`interval=1m&from=${NOW_S - 600}&to=${NOW_S - 300}`);
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ error: 'unavailable', message: expect.stringContaining('no venue answered') });
    } finally {
      for (const v of VENUES) pinned.world.setVenueDown(v, false);
    }
  });

  it.each([
    ['interval=2m', 'interval'],
    ['interval=', 'interval'],
    ['from=abc', 'from'],
    ['from=-1', 'from'],
    ['to=1.5', 'to'],
    ['to=99999999999', 'to'],
    [`from=${NOW_S}&to=${NOW_S - 60}`, 'from'],
    [`interval=1m&from=${NOW_S - 5000 * 60}&to=${NOW_S}`, 'from'],
    ['venue=venue_c', 'venue'],
  ])('400 naming the field for %s', async (qs, field) => {
    const r = await get(qs);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'bad_request', message: expect.stringMatching(new RegExp(`^${field}: `)) });
  });

  it('accepts a range of exactly the bucket limit', async () => {
    const to = Math.floor(NOW_S / 60) * 60;
    const r = await get(`interval=1m&from=${to - 4999 * 60}&to=${to}&venue=venue_b`);
    expect(r.status).toBe(200);
  });

  it('404 for an unknown event', async () => {
    const r = await get('', 'no-such-event');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'not_found', message: expect.any(String) });
  });

  it('is the same answer through GraphQL (Event.history)', async () => {
    const qs = `interval=1d&from=${NOW_S - 10 * 86_400}&to=${NOW_S}`;
    const rest = await get(qs);
    const query = `query($id: String!, $from: Int, $to: Int) { event(ref: $id) { history(interval: "1d", from:
      $from, to: $to) {
      eventId interval bucketSeconds from to markets { venue marketId title kind candles }
      venues { venue status markets error } failedVenues } } }`;
    const viaGraphql = await gql<EventHistoryQuery>(app, query, { id: eventId, from: NOW_S - 10 * 86_400, to: NOW_S });
    expect(viaGraphql.body.data!.event.history).toEqual(rest.body);
    const bad = await gql(app, `{ event(ref: "${eventId}") { history(interval: "2h") { eventId } } }`);
    expect(bad.body.errors![0]).toMatchObject({
      message: expect.stringMatching(/^interval: /),
      extensions: { code: 'bad_request' },
    });
  });
});
