import { type PublicTrade, type Venue, VENUES } from '../venue.models';
import { buildCatalog } from './sim-catalog';
import { monthStart } from './sim-dates';
import { SeedKeys } from './sim-keys';
import { LiveTradeGenerator, LiveTradeLog } from './sim-live';
import { walletPool } from './sim-trades';
import { SimVenueClient } from './sim-venue.client';
import type { SimulatedWorld, SimulatedWorldOptions } from './sim-world.types';

/** Seed used when neither a secret nor a seed is given. */
export const DEFAULT_WORLD_SEED = 20_240_601;

/**
 * Builds the simulated world: a catalog of core events listed on one or both
 * venues, and a {@link SimVenueClient} per venue serving books, history,
 * trades and holders as pure functions of the world's keys (a secret, or a
 * demo seed: see `sim-keys.ts`), the market and the clock. The same keys (and
 * calendar month, see {@link SimulatedWorldOptions.anchor}) give the same world;
 * nothing is random at call time.
 */
export function createSimulatedWorld(opts: SimulatedWorldOptions = {}): SimulatedWorld {
  const keys = opts.keys ?? new SeedKeys(opts.seed ?? DEFAULT_WORLD_SEED);
  const now = opts.now ?? Date.now;
  const created = now();
  const catalog = buildCatalog(keys, monthStart(opts.anchor ?? created), created);
  const wallets = walletPool(keys);
  const down = new Set<Venue>();
  const live = new LiveTradeLog();
  const ctx = { keys, now, isDown: (v: Venue) => down.has(v), wallets, live };
  const clients: Record<Venue, SimVenueClient> = {
    venue_a: new SimVenueClient('venue_a', catalog, ctx),
    venue_b: new SimVenueClient('venue_b', catalog, ctx),
  };
  const active = VENUES.flatMap((v) => [...catalog.markets[v].values()].filter((m) => m.status === 'active'));
  const deliver = (trade: PublicTrade) => {
    // A venue that is down publishes nothing; its feed resumes when it comes back.
    if (down.has(trade.venue)) return;
    live.record(trade);
    clients[trade.venue].emit(trade);
  };
  const generator = new LiveTradeGenerator(keys, active, wallets, now, deliver);
  return {
    fingerprint: keys.fingerprint,
    coreEvents: catalog.coreEvents,
    clients,
    startLiveTrades: (rate) => generator.start(rate),
    stopLiveTrades: () => generator.stop(),
    setVenueDown: (venue, isDown) => {
      if (isDown) down.add(venue);
      else down.delete(venue);
    },
  };
}
