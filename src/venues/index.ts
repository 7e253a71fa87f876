/**
 * Venue access: the client contract every venue fulfils, and the deterministic
 * simulated world used by default instead of the real venue APIs.
 */
export * from './venue.models';
export * from './venue-client';
export * from './venue-stream';
export { SimVenueStream } from './sim/sim-stream';
export { createSimulatedWorld, DEFAULT_WORLD_SEED } from './sim/sim-world';
export { SecretKeys, SeedKeys, SIM_SECRET_BYTES, worldKeysOf, type WorldKeys } from './sim/sim-keys';
export type { SimulatedWorld, SimulatedWorldOptions, WorldCoreEvent, WorldCoreMarket } from './sim/sim-world.types';
export { noBidsToYesAsks } from './sim/sim-book';
export { INTERVAL_SECONDS, MAX_HISTORY_POINTS } from './sim/sim-history';
export { outcomeTokenId } from './sim/sim-tokens';
export { slugify } from './sim/sim-catalog.types';
export {
  createVenueClients,
  createVenueAClient,
  createVenueBClient,
  createVenueStream,
  isLiveVenueClient,
  venueATradeId,
  VenueAClient,
  VenueAStream,
  VenueBStream,
  VenueSocket,
  VenueBClient,
  type LiveVenueClient,
  type LiveVenueDeps,
} from './live';
