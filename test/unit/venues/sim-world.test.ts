import {
  createSimulatedWorld,
  DEFAULT_WORLD_SEED,
  type PublicTrade,
  VenueMarketNotFoundError,
  VenueUnavailableError,
  VENUES,
} from '../../../src/venues';
import { activeMarket, NOW, world } from './world-fixture';

describe('simulated world', () => {
  // How long a build takes is measured by the benchmark (`npm run bench`, its start-up part), not timed here.
  it('uses a default seed', () => {
    const w = createSimulatedWorld({ now: () => NOW });
    const byDefaultSeed = createSimulatedWorld({ seed: DEFAULT_WORLD_SEED, now: () => NOW });
    expect(w.fingerprint).toBe(byDefaultSeed.fingerprint);
    expect(w.coreEvents).toEqual(byDefaultSeed.coreEvents);
  });

  it('rejects unknown markets with VenueMarketNotFoundError', async () => {
    const w = world();
    for (const v of VENUES) {
      const c = w.clients[v];
      await expect(c.getOrderBook('nope')).rejects.toBeInstanceOf(VenueMarketNotFoundError);
      await expect(c.getPriceHistory('nope', { interval: '1h', from: 0, to: 1 })).rejects.toBeInstanceOf(
        VenueMarketNotFoundError,
      );
      await expect(c.getPublicTrades('nope', { limit: 1, offset: 0 })).rejects.toBeInstanceOf(VenueMarketNotFoundError);
      await expect(c.getHolders('nope', 1)).rejects.toBeInstanceOf(VenueMarketNotFoundError);
      await expect(c.getOrderBook('nope')).rejects.toMatchObject({ venue: v, venueMarketId: 'nope' });
    }
  });

  it('rejects every call on a venue that is down, and recovers', async () => {
    const w = world();
    const m = await activeMarket(w, 'venue_b');
    const c = w.clients.venue_b;
    w.setVenueDown('venue_b', true);
    const calls = [
      c.listEvents(),
      c.getOrderBook(m.venueMarketId),
      c.getPriceHistory(m.venueMarketId, { interval: '1h', from: 0, to: NOW / 1000 }),
      c.getPublicTrades(m.venueMarketId, { limit: 1, offset: 0 }),
      c.getHolders(m.venueMarketId, 1),
      c.placeOrder({
        venueMarketId: m.venueMarketId,
        side: 'buy',
        outcome: 'yes',
        size: 1,
        orderType: 'market',
        clientOrderId: 'd1',
      }),
      c.getOrderBook('unknown-too'),
    ];
    for (const call of calls) await expect(call).rejects.toBeInstanceOf(VenueUnavailableError);
    await expect(c.listEvents()).rejects.toMatchObject({ venue: 'venue_b' });
    const off = c.onTrade(() => undefined);
    expect(typeof off).toBe('function');
    off();
    await expect(w.clients.venue_a.listEvents()).resolves.not.toHaveLength(0);
    w.setVenueDown('venue_b', false);
    await expect(c.getOrderBook(m.venueMarketId)).resolves.toMatchObject({ venue: 'venue_b' });
  });

  it('publishes no live trades for a venue while it is down', () => {
    jest.useFakeTimers({ now: NOW });
    try {
      const w = createSimulatedWorld({ seed: 5 });
      const got: PublicTrade[] = [];
      for (const v of VENUES) w.clients[v].onTrade((t) => got.push(t));
      w.setVenueDown('venue_a', true);
      w.startLiveTrades(50);
      jest.advanceTimersByTime(2_000);
      w.stopLiveTrades();
      expect(got.length).toBeGreaterThan(0);
      expect(got.every((t) => t.venue === 'venue_b')).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});
