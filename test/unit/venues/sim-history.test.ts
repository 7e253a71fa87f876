import type { Candle, PricePoint } from '../../../src/venues';
import { INTERVAL_SECONDS, MAX_HISTORY_POINTS } from '../../../src/venues';
import { activeMarket, NOW, world } from './world-fixture';

const nowS = NOW / 1000;

async function candles(from: number, to: number, interval: '1m' | '5m' | '1h' | '1d' | '1w'): Promise<Candle[]> {
  const w = world();
  const m = await activeMarket(w, 'venue_b', 3);
  const h = await w.clients.venue_b.getPriceHistory(m.venueMarketId, { interval, from, to });
  if (h.kind !== 'ohlcv') throw new Error('venue_b must return candles');
  return h.candles;
}

describe('price history', () => {
  it('returns points on venue_a and OHLCV candles on venue_b', async () => {
    const w = world();
    const a = await activeMarket(w, 'venue_a');
    const b = await activeMarket(w, 'venue_b');
    const q = { interval: '1h' as const, from: nowS - 48 * 3600, to: nowS };
    const ha = await w.clients.venue_a.getPriceHistory(a.venueMarketId, q);
    const hb = await w.clients.venue_b.getPriceHistory(b.venueMarketId, q);
    expect(ha.kind).toBe('points');
    expect(hb.kind).toBe('ohlcv');
    const points: PricePoint[] = ha.kind === 'points' ? ha.points : [];
    expect(points.length).toBeGreaterThanOrEqual(48);
    for (const p of points) {
      expect(p.p).toBeGreaterThan(0);
      expect(p.p).toBeLessThan(1);
    }
  });

  it.each(['1m', '5m', '1h', '1d', '1w'] as const)('aligns %s buckets and keeps h/l around o/c', async (interval) => {
    const step = INTERVAL_SECONDS[interval];
    const list = await candles(nowS - 300 * step + 17, nowS, interval);
    expect(list.length).toBeGreaterThan(0);
    for (let i = 0; i < list.length; i++) {
      const c = list[i];
      expect(c.t % step).toBe(0);
      if (i > 0) expect(c.t - list[i - 1].t).toBe(step);
      expect(c.h).toBeGreaterThanOrEqual(Math.max(c.o, c.c));
      expect(c.l).toBeLessThanOrEqual(Math.min(c.o, c.c));
      expect(c.v).toBeGreaterThanOrEqual(0);
    }
    expect(list[list.length - 1].t).toBe(Math.floor(nowS / step) * step);
  });

  it('is reproducible and consistent across intervals', async () => {
    const hourStart = Math.floor(nowS / 3600) * 3600 - 5 * 3600;
    const [hour] = await candles(hourStart, hourStart + 3599, '1h');
    const minutes = await candles(hourStart, hourStart + 3599, '1m');
    expect(minutes).toHaveLength(60);
    expect(hour.o).toBe(minutes[0].o);
    expect(hour.c).toBe(minutes[59].c);
    expect(hour.h).toBeLessThanOrEqual(Math.max(...minutes.map((m) => m.h)));
    expect(hour.l).toBeGreaterThanOrEqual(Math.min(...minutes.map((m) => m.l)));
    expect(await candles(hourStart, hourStart + 3599, '1m')).toEqual(minutes);
  });

  it('is bounded, clipped to the present, and empty before listing', async () => {
    const capped = await candles(0, nowS, '1m');
    expect(capped.length).toBe(MAX_HISTORY_POINTS);
    expect(capped[capped.length - 1].t).toBe(Math.floor(nowS / 60) * 60);
    expect(await candles(nowS + 3600, nowS + 7200, '1m')).toEqual([]);
    expect(await candles(0, 1_000_000, '1d')).toEqual([]);
    expect(await candles(nowS, nowS - 60, '1m')).toEqual([]);
  });

  it('tracks the same question closely across venues', async () => {
    const w = world();
    const e = w.coreEvents.find((x) => x.matchKind === 'exact_match' && x.markets.length > 1)!;
    const cm = e.markets[0];
    const q = { interval: '1h' as const, from: nowS - 72 * 3600, to: nowS };
    const ha = await w.clients.venue_a.getPriceHistory(cm.venueMarketIds.venue_a!, q);
    const hb = await w.clients.venue_b.getPriceHistory(cm.venueMarketIds.venue_b!, q);
    const pa = ha.kind === 'points' ? ha.points : [];
    const cb = hb.kind === 'ohlcv' ? hb.candles : [];
    expect(pa.length).toBe(cb.length);
    const gaps = pa.map((p, i) => Math.abs(p.p - cb[i].o));
    expect(Math.max(...gaps)).toBeLessThan(0.1);
  });

  it('rejects unknown intervals', async () => {
    const w = world();
    const m = await activeMarket(w, 'venue_a');
    await expect(
      w.clients.venue_a.getPriceHistory(m.venueMarketId, { interval: '2h' as '1h', from: 0, to: nowS }),
    ).rejects.toThrow(RangeError);
  });
});
