import type { MarketView } from '../../../src/modules/events';
import { findCounterpart, pairMarkets } from '../../../src/modules/markets';
import { pinnedWorld } from '../../support/pinned-world';

/** The pinned world's matched events as catalog rows, with the simulator's ground truth beside them. */
async function matchedEvents() {
  const { world } = pinnedWorld();
  const listings = [...(await world.clients.venue_a.listEvents()), ...(await world.clients.venue_b.listEvents())];
  return world.coreEvents
    .filter((e) => e.sourceType === 'matched')
    .map((e) => {
      const markets: MarketView[] = listings
        .filter((l) => l.venueEventId === e.venueEventIds[l.venue])
        .flatMap((l) =>
          l.markets.map(({ venueMarketId, ...m }) => ({
            ...m,
            id: `${m.venue}:${venueMarketId}`,
            marketId: venueMarketId,
            eventId: e.id,
          })),
        );
      return { e, markets };
    });
}

describe('cross-venue market matching', () => {
  it('finds the same question on the other venue for every market of the demo world', async () => {
    let right = 0;
    let total = 0;
    for (const { e, markets } of await matchedEvents()) {
      for (const cm of e.markets) {
        const a = markets.find((m) => m.venue === 'venue_a' && m.marketId === cm.venueMarketIds.venue_a);
        const b = markets.find((m) => m.venue === 'venue_b' && m.marketId === cm.venueMarketIds.venue_b);
        if (!a || !b) continue;
        total += 1;
        if (findCounterpart(a, markets)?.market.id === b.id && findCounterpart(b, markets)?.market.id === a.id)
          right += 1;
      }
    }
    process.stdout.write(`\ncounterparts matching the world's ground truth: ${right}/${total}\n`);
    expect(total).toBeGreaterThan(50);
    expect(right / total).toBeGreaterThanOrEqual(0.95);
  });

  it('pairs one to one and is deterministic', async () => {
    for (const { markets } of await matchedEvents()) {
      const pairs = pairMarkets(markets, 'venue_a', 'venue_b');
      expect(new Set(pairs.map((p) => p.a.id)).size).toBe(pairs.length);
      expect(new Set(pairs.map((p) => p.b.id)).size).toBe(pairs.length);
      expect(
        pairMarkets([...markets].reverse(), 'venue_a', 'venue_b')
          .map((p) => [p.a.id, p.b.id])
          .sort(),
      ).toEqual(pairs.map((p) => [p.a.id, p.b.id]).sort());
    }
  });

  it('has no counterpart without markets on the other venue', () => {
    const m = { id: 'venue_a:x', venue: 'venue_a', marketId: 'x', title: 'Will it rain?' } as MarketView;
    expect(findCounterpart(m, [m])).toBeNull();
  });
});
