import { AppError } from '../../../src/errors/app-error';
import { MemoryCache } from '../../../src/infra';
import {
  HISTORY_CACHE_TTL_SECONDS,
  HISTORY_INTERVALS,
  HISTORY_LOOKBACK_SECONDS,
  HistoryService,
  INTERVAL_SECONDS,
} from '../../../src/modules/charts';
import type { MarketView } from '../../../src/modules/events';
import { activeMatchedEvent, pinnedWorld, PINNED_NOW } from '../../support/pinned-world';

/** A real in-process cache that remembers the TTL of each fill. */
class RecordingCache extends MemoryCache {
  readonly fills: { key: string; ttlMs: number }[] = [];
  override wrap<T>(key: string, ttlMs: number, load: () => Promise<T>) {
    return super.wrap(key, ttlMs, async () => {
      this.fills.push({ key, ttlMs });
      return load();
    });
  }
}

const NOW_S = Math.floor(PINNED_NOW / 1000);

function setup() {
  const p = pinnedWorld();
  const cache = new RecordingCache({ maxEntries: 1000, now: p.now, onError: () => undefined });
  const service = new HistoryService(p.world.clients, cache, { now: p.now });
  const e = activeMatchedEvent(p.world);
  const markets: MarketView[] = e.markets.flatMap((cm) =>
    (['venue_a', 'venue_b'] as const).flatMap((venue) => {
      const marketId = cm.venueMarketIds[venue];
      return marketId
        ? [
            {
              id: `${venue}:${marketId}`,
              marketId,
              venue,
              eventId: e.id,
              title: cm.label,
              endDate: e.closeTime,
            } as MarketView,
          ]
        : [];
    }),
  );
  return { ...p, cache, service, e, markets };
}

describe('history cache TTL table', () => {
  it('is 30 s at 1m and 1 h at 1d, increasing with the interval, always shorter than a bucket', () => {
    expect(HISTORY_CACHE_TTL_SECONDS['1m']).toBe(30);
    expect(HISTORY_CACHE_TTL_SECONDS['1d']).toBe(3600);
    const ttls = HISTORY_INTERVALS.map((i) => HISTORY_CACHE_TTL_SECONDS[i]);
    for (let i = 1; i < ttls.length; i++) expect(ttls[i]).toBeGreaterThan(ttls[i - 1]);
    for (const i of HISTORY_INTERVALS) expect(HISTORY_CACHE_TTL_SECONDS[i]).toBeLessThan(INTERVAL_SECONDS[i]);
    expect(HISTORY_CACHE_TTL_SECONDS).toEqual({ '1m': 30, '5m': 120, '1h': 600, '1d': 3600, '1w': 21600 });
  });

  it.each(HISTORY_INTERVALS.map((i) => [i]))(
    'caches each venue series of %s with its TTL, per venue, market, interval and range',
    async (interval) => {
      const { service, cache, e, markets } = setup();
      await service.eventHistory(e.id, markets, { interval });
      expect(cache.fills).toHaveLength(markets.length);
      for (const f of cache.fills) {
        expect(f.ttlMs).toBe(HISTORY_CACHE_TTL_SECONDS[interval] * 1000);
        expect(f.key).toMatch(new RegExp(`^history:v1:venue_[ab]:[^:]+:${interval}:\\d+:\\d+$`));
      }
      await service.eventHistory(e.id, markets, { interval });
      expect(cache.fills).toHaveLength(markets.length);
    },
  );

  it('expires an entry after its TTL', async () => {
    const { service, cache, e, markets, clock } = setup();
    const req = { interval: '1m', from: NOW_S - 3600, to: NOW_S - 1800 };
    await service.eventHistory(e.id, markets, req);
    clock.ms += 29_000;
    await service.eventHistory(e.id, markets, req);
    expect(cache.fills).toHaveLength(markets.length);
    clock.ms += 2_000;
    await service.eventHistory(e.id, markets, req);
    expect(cache.fills).toHaveLength(2 * markets.length);
  });
});

describe('HistoryService.range', () => {
  const { service } = setup();

  it.each(HISTORY_INTERVALS.map((i) => [i]))('defaults %s to now minus its lookback window', (interval) => {
    const r = service.range({ interval });
    expect(r).toMatchObject({
      interval,
      to: NOW_S,
      from: NOW_S - HISTORY_LOOKBACK_SECONDS[interval],
    });
    expect(r.lastBucket).toBe(Math.floor(NOW_S / r.bucketSeconds) * r.bucketSeconds);
  });

  it('defaults the interval to 1h', () => {
    expect(service.range({}).interval).toBe('1h');
  });

  it.each([
    [{ interval: '2m' }, 'interval'],
    [{ from: 10, to: 5 }, 'from'],
    [{ from: -5 }, 'from'],
    [{ to: 1.5 }, 'to'],
    [{ interval: '1m', from: NOW_S - 5000 * 60, to: NOW_S }, 'from'],
  ])('rejects %j naming %s', (req, field) => {
    expect(() => service.range(req)).toThrow(AppError);
    expect(() => service.range(req)).toThrow(new RegExp(`^${field}: `));
  });
});

describe('venue failures', () => {
  it('answers with the other venue and leaves nothing cached for the failed one', async () => {
    const { service, cache, e, markets, world } = setup();
    world.setVenueDown('venue_b', true);
    const h = await service.eventHistory(e.id, markets, { interval: '1h' });
    expect(h.failedVenues).toEqual(['venue_b']);
    expect(h.markets.every((m) => m.venue === 'venue_a')).toBe(true);
    const bKeys = cache.fills.filter((f) => f.key.includes(':venue_b:'));
    for (const f of bKeys) expect(await cache.get(f.key)).toBeUndefined();
    world.setVenueDown('venue_a', true);
    await expect(service.eventHistory(e.id, markets, { interval: '1d' })).rejects.toMatchObject({
      code: 'unavailable',
    });
  });
});
