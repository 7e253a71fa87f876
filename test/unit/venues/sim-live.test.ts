import { createSimulatedWorld, type PublicTrade } from '../../../src/venues';
import { NOW } from './world-fixture';

describe('live trade generator', () => {
  beforeEach(() => jest.useFakeTimers({ now: NOW }));
  afterEach(() => jest.useRealTimers());

  const collect = (w: ReturnType<typeof createSimulatedWorld>) => {
    const got: PublicTrade[] = [];
    w.clients.venue_a.onTrade((t) => got.push(t));
    w.clients.venue_b.onTrade((t) => got.push(t));
    return got;
  };

  it('emits about the requested rate over both venues, then stops', () => {
    const w = createSimulatedWorld({ seed: 5 });
    const got = collect(w);
    w.startLiveTrades(20);
    jest.advanceTimersByTime(10_000);
    expect(got.length).toBeGreaterThanOrEqual(150);
    expect(got.length).toBeLessThanOrEqual(250);
    expect(new Set(got.map((t) => t.venue))).toEqual(new Set(['venue_a', 'venue_b']));
    expect(new Set(got.map((t) => `${t.venue}|${t.venueTradeId}`)).size).toBe(got.length);
    for (const t of got) {
      expect(Math.abs(t.filledAt.getTime() - Date.now())).toBeLessThanOrEqual(10_000);
      expect(t.venueTraderId === null).toBe(t.venue === 'venue_b');
    }
    w.stopLiveTrades();
    const count = got.length;
    jest.advanceTimersByTime(10_000);
    expect(got.length).toBe(count);
  });

  it('stamps trades with the clock and lists them in getPublicTrades', async () => {
    const w = createSimulatedWorld({ seed: 5 });
    const got = collect(w);
    w.startLiveTrades(5);
    jest.advanceTimersByTime(2_000);
    w.stopLiveTrades();
    const last = got[got.length - 1];
    expect(last.filledAt.getTime()).toBeGreaterThan(NOW);
    expect(last.filledAt.getTime()).toBeLessThanOrEqual(Date.now());
    const page = await w.clients[last.venue].getPublicTrades(last.venueMarketId, { limit: 5, offset: 0 });
    expect(page[0]).toEqual(last);
  });

  it('emits the same trades in two worlds with the same seed', () => {
    const a = createSimulatedWorld({ seed: 9 });
    const b = createSimulatedWorld({ seed: 9 });
    const ga = collect(a);
    const gb = collect(b);
    a.startLiveTrades(10);
    b.startLiveTrades(10);
    jest.advanceTimersByTime(3_000);
    a.stopLiveTrades();
    b.stopLiveTrades();
    expect(ga.length).toBeGreaterThan(0);
    expect(gb).toEqual(ga);
  });

  it('unsubscribes, and rate 0 means off', () => {
    const w = createSimulatedWorld({ seed: 5 });
    const got: PublicTrade[] = [];
    const off = w.clients.venue_a.onTrade((t) => got.push(t));
    w.startLiveTrades(0);
    jest.advanceTimersByTime(5_000);
    expect(got).toEqual([]);
    w.startLiveTrades(50);
    jest.advanceTimersByTime(1_000);
    off();
    const count = got.length;
    expect(count).toBeGreaterThan(0);
    jest.advanceTimersByTime(1_000);
    expect(got.length).toBe(count);
    w.stopLiveTrades();
  });

  it('survives a throwing listener', () => {
    const w = createSimulatedWorld({ seed: 5 });
    w.clients.venue_a.onTrade(() => {
      throw new Error('boom');
    });
    const got = collect(w);
    w.startLiveTrades(20);
    expect(() => jest.advanceTimersByTime(1_000)).not.toThrow();
    expect(got.length).toBeGreaterThan(0);
    w.stopLiveTrades();
  });
});
