import { SOURCE_TYPES, VENUES } from '../../../src/venues';
import { allMarkets, NOW, world } from './world-fixture';

describe('simulated catalog', () => {
  it('is deterministic for a seed and differs across seeds', async () => {
    const a = world(7);
    const b = world(7);
    const c = world(8);
    expect(b.coreEvents).toEqual(a.coreEvents);
    for (const v of VENUES) expect(await b.clients[v].listEvents()).toEqual(await a.clients[v].listEvents());
    expect(c.coreEvents.map((e) => e.id)).not.toEqual(a.coreEvents.map((e) => e.id));
  });

  it('keeps ids stable within the calendar month', () => {
    const early = world(7, Date.UTC(2026, 10, 2, 0, 0));
    const late = world(7, Date.UTC(2026, 10, 28, 0, 0));
    expect(late.coreEvents.map((e) => e.id)).toEqual(early.coreEvents.map((e) => e.id));
  });

  it.each([NOW, Date.UTC(2027, 0, 15), Date.UTC(2027, 3, 3), Date.UTC(2027, 6, 20), Date.UTC(2027, 8, 30)])(
    'meets the catalog invariants (now = %d)',
    async (now) => {
      const w = world(11, now);
      const events = w.coreEvents;
      expect(events.length).toBeGreaterThanOrEqual(60);
      expect(new Set(events.map((e) => e.category)).size).toBeGreaterThanOrEqual(6);
      for (const t of SOURCE_TYPES) expect(events.filter((e) => e.sourceType === t).length).toBeGreaterThanOrEqual(5);
      expect(events.filter((e) => e.sourceType === 'matched').length).toBeGreaterThan(events.length / 2);
      expect(events.some((e) => e.matchKind === 'similar')).toBe(true);
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      expect(new Set(events.map((e) => e.slug)).size).toBe(events.length);
      for (const e of events) {
        expect(e.id).toMatch(/^evt_[0-9a-f]{12}$/);
        expect(e.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(e.title.length).toBeGreaterThan(10);
        expect(e.description.length).toBeGreaterThan(30);
      }

      const listings = Object.fromEntries(
        await Promise.all(VENUES.map(async (v) => [v, await w.clients[v].listEvents()] as const)),
      );
      for (const e of events) {
        const expected =
          e.sourceType === 'matched' ? VENUES : e.sourceType === 'venue_a_only' ? ['venue_a'] : ['venue_b'];
        expect(Object.keys(e.venueEventIds).sort()).toEqual([...expected].sort());
        for (const v of VENUES) {
          const id = e.venueEventIds[v];
          if (id === undefined) continue;
          const ve = listings[v]?.find((x) => x.venueEventId === id);
          expect(ve).toBeDefined();
          expect(ve?.markets.length).toBeGreaterThanOrEqual(1);
          expect(ve?.markets.length).toBeLessThanOrEqual(4);
          expect(ve?.category).toBe(e.category);
        }
      }
      const listed = VENUES.reduce((n, v) => n + (listings[v]?.length ?? 0), 0);
      const linked = events.reduce((n, e) => n + Object.keys(e.venueEventIds).length, 0);
      expect(listed).toBe(linked);
    },
  );

  it('words matched events differently per venue', async () => {
    const w = world();
    const [a, b] = await Promise.all([w.clients.venue_a.listEvents(), w.clients.venue_b.listEvents()]);
    const matched = w.coreEvents.filter((e) => e.sourceType === 'matched');
    let differing = 0;
    for (const e of matched) {
      const ea = a.find((x) => x.venueEventId === e.venueEventIds.venue_a);
      const eb = b.find((x) => x.venueEventId === e.venueEventIds.venue_b);
      if (ea?.markets[0]?.title !== eb?.markets[0]?.title) differing++;
    }
    expect(differing).toBe(matched.length);
  });

  it('shapes venue-native ids and market fields', async () => {
    const w = world();
    const a = await allMarkets(w, 'venue_a');
    const b = await allMarkets(w, 'venue_b');
    for (const m of a) expect(m.venueMarketId).toMatch(/^0x[0-9a-f]{64}$/);
    for (const m of b) expect(m.venueMarketId).toMatch(/^KX[A-Z0-9]+-[A-Z0-9.]+(-[A-Z0-9.]+)?$/);
    const all = [...a, ...b];
    expect(new Set(all.map((m) => `${m.venue}:${m.venueMarketId}`)).size).toBe(all.length);
    expect(new Set(a.map((m) => m.slug)).size).toBe(a.length);
    const statuses = new Set(all.map((m) => m.status));
    expect(statuses).toEqual(new Set(['active', 'closed', 'resolved']));
    expect(all.filter((m) => m.status === 'active').length).toBeGreaterThan(all.length * 0.75);
    for (const m of all) {
      expect(m.outcomes).toEqual(['Yes', 'No']);
      expect(m.volume).toBeGreaterThanOrEqual(m.volume24h ?? 0);
      expect(m.lastPrice).not.toBeNull();
      if (m.status === 'active') {
        expect(m.bestBid).not.toBeNull();
        expect(m.bestAsk).not.toBeNull();
        expect(m.bestBid as number).toBeLessThan(m.bestAsk as number);
        expect(m.liquidity).toBeGreaterThan(0);
      } else {
        expect(m.bestBid).toBeNull();
        expect(m.bestAsk).toBeNull();
      }
    }
  });

  it('links every core market to venue markets that exist', async () => {
    const w = world();
    const ids = new Set(
      [...(await allMarkets(w, 'venue_a')), ...(await allMarkets(w, 'venue_b'))].map((m) => m.venueMarketId),
    );
    for (const e of w.coreEvents) {
      expect(e.markets.length).toBeGreaterThan(0);
      for (const cm of e.markets) for (const id of Object.values(cm.venueMarketIds)) expect(ids.has(id)).toBe(true);
    }
  });
});
