import {
  createSimulatedWorld,
  type SimulatedWorld,
  type Venue,
  type VenueEvent,
  type VenueMarket,
} from '../../../src/venues';

/** A fixed instant so every test sees the same world. */
export const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

export function world(seed = 7, now = NOW): SimulatedWorld {
  return createSimulatedWorld({ seed, now: () => now });
}

export async function allMarkets(w: SimulatedWorld, venue: Venue): Promise<VenueMarket[]> {
  const events: VenueEvent[] = await w.clients[venue].listEvents();
  return events.flatMap((e) => e.markets);
}

export async function activeMarket(w: SimulatedWorld, venue: Venue, index = 0): Promise<VenueMarket> {
  const active = (await allMarkets(w, venue)).filter((m) => m.status === 'active');
  const m = active[index % active.length];
  if (!m) throw new Error(`no active market on ${venue}`);
  return m;
}
