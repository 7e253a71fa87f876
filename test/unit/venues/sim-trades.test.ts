import { VENUES } from '../../../src/venues';
import { activeMarket, allMarkets, NOW, world } from './world-fixture';

describe('public trades', () => {
  it.each(VENUES)('are newest first, deterministic and paginated on %s', async (venue) => {
    const w = world();
    const m = await activeMarket(w, venue, 2);
    const client = w.clients[venue];
    const page = await client.getPublicTrades(m.venueMarketId, { limit: 50, offset: 0 });
    expect(page.length).toBe(50);
    for (let i = 1; i < page.length; i++)
      expect(page[i].filledAt.getTime()).toBeLessThanOrEqual(page[i - 1].filledAt.getTime());
    expect(page[0].filledAt.getTime()).toBeLessThanOrEqual(NOW);
    expect(new Set(page.map((t) => t.venueTradeId)).size).toBe(page.length);
    expect(await world().clients[venue].getPublicTrades(m.venueMarketId, { limit: 50, offset: 0 })).toEqual(page);
    const second = await client.getPublicTrades(m.venueMarketId, { limit: 10, offset: 40 });
    expect(second).toEqual(page.slice(40, 50));
    for (const t of page) {
      expect(t.venue).toBe(venue);
      expect(t.venueMarketId).toBe(m.venueMarketId);
      expect(t.price).toBeGreaterThan(0);
      expect(t.price).toBeLessThan(1);
      expect(t.size).toBeGreaterThan(0);
      expect(['buy', 'sell']).toContain(t.side);
      expect(['yes', 'no']).toContain(t.outcome);
    }
  });

  it('carries trader wallets only on venue_a, drawn from a shared pool', async () => {
    const w = world();
    const wallets = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const m = await activeMarket(w, 'venue_a', i * 7);
      for (const t of await w.clients.venue_a.getPublicTrades(m.venueMarketId, { limit: 200, offset: 0 })) {
        expect(t.venueTraderId).toMatch(/^0x[0-9a-f]{40}$/);
        expect(t.venueTradeId).toMatch(/^0x[0-9a-f]{64}$/);
        wallets.add(t.venueTraderId as string);
      }
    }
    // 1200 trades from a pool of about 200 wallets: traders must recur.
    expect(wallets.size).toBeLessThanOrEqual(200);
    expect(wallets.size).toBeGreaterThan(20);
    const b = await activeMarket(w, 'venue_b');
    for (const t of await w.clients.venue_b.getPublicTrades(b.venueMarketId, { limit: 100, offset: 0 })) {
      expect(t.venueTraderId).toBeNull();
      expect(t.venueTradeId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('stop at the close of a decided market and clamp silly pages', async () => {
    const w = world();
    const done = (await allMarkets(w, 'venue_a')).find((m) => m.status === 'resolved')!;
    const trades = await w.clients.venue_a.getPublicTrades(done.venueMarketId, { limit: 5, offset: 0 });
    for (const t of trades) expect(t.filledAt.getTime()).toBeLessThan(done.endDate!.getTime());
    const m = await activeMarket(w, 'venue_a');
    expect(await w.clients.venue_a.getPublicTrades(m.venueMarketId, { limit: -3, offset: -1 })).toEqual([]);
    expect(
      (await w.clients.venue_a.getPublicTrades(m.venueMarketId, { limit: 1e9, offset: 0 })).length,
    ).toBeLessThanOrEqual(1000);
  });
});

describe('holders', () => {
  it('lists venue_a positions largest first, limited', async () => {
    const w = world();
    const m = await activeMarket(w, 'venue_a', 4);
    const res = await w.clients.venue_a.getHolders(m.venueMarketId, 10);
    expect(res.supported).toBe(true);
    expect(res.holders.length).toBe(10);
    for (let i = 1; i < res.holders.length; i++)
      expect(res.holders[i].size).toBeLessThanOrEqual(res.holders[i - 1].size);
    for (const h of res.holders) {
      expect(h.wallet).toMatch(/^0x[0-9a-f]{40}$/);
      expect(['yes', 'no']).toContain(h.outcome);
      expect(h.avgPrice).toBeGreaterThan(0);
      expect(h.avgPrice).toBeLessThan(1);
    }
    expect(new Set(res.holders.map((h) => `${h.wallet}|${h.outcome}`)).size).toBe(res.holders.length);
    expect(await world().clients.venue_a.getHolders(m.venueMarketId, 10)).toEqual(res);
  });

  it('is unsupported on venue_b', async () => {
    const w = world();
    const m = await activeMarket(w, 'venue_b');
    expect(await w.clients.venue_b.getHolders(m.venueMarketId, 10)).toEqual({
      supported: false,
      reason: 'venue_b does not publish holder identities',
      holders: [],
    });
  });
});
