import type { SourceType, Venue } from '../venue.models';
import type { VenueClient } from '../venue-client';
import type { WorldKeys } from './sim-keys';

/** One question inside a core event, with the venue market that lists it on each venue. */
export interface WorldCoreMarket {
  /** Stable within the event, e.g. `t120000`, `ars`, `yes`. */
  key: string;
  /** The candidate or threshold ("Arsenal", "$120,000", "Yes"). */
  label: string;
  venueMarketIds: Partial<Record<Venue, string>>;
}

/**
 * A unified event: one real-world question, listed on one or both venues.
 * `matchKind` and `markets` are the simulator's ground truth, useful for
 * testing a cross-venue matcher; production matching must not rely on them.
 */
export interface WorldCoreEvent {
  /** `evt_` + 12 hex chars of the world's keys for the canonical key. */
  id: string;
  /** Unique, url-friendly. */
  slug: string;
  title: string;
  /** Resolution criteria. */
  description: string;
  category: string;
  sourceType: SourceType;
  closeTime: Date | null;
  /** Which venue events make up this core event. */
  venueEventIds: Partial<Record<Venue, string>>;
  /** For matched events: same question on both venues, or related but with different criteria/timeframe. */
  matchKind: 'exact_match' | 'similar' | null;
  markets: WorldCoreMarket[];
}

/** A deterministic, in-process stand-in for both venues. */
export interface SimulatedWorld {
  /** Names the world's keys without revealing a secret: equal for worlds built from the same keys. */
  readonly fingerprint: string;
  readonly coreEvents: WorldCoreEvent[];
  readonly clients: Record<Venue, VenueClient>;
  /** Start the live trade generator: `ratePerSecond` trades/s in total across both venues (0 = off). */
  startLiveTrades(ratePerSecond: number): void;
  stopLiveTrades(): void;
  /** Inject a failure mode for tests: subsequent calls on that venue reject with VenueUnavailableError. */
  setVenueDown(venue: Venue, down: boolean): void;
}

/** Options for {@link SimulatedWorld} creation. */
export interface SimulatedWorldOptions {
  /** The world's keys (a secret, see `SecretKeys`); the same keys give the same catalog, ids, books and series. */
  keys?: WorldKeys;
  /** Without `keys`: a demo world's number (`SIM_SEED`, see `SeedKeys`); the same number gives the same world. */
  seed?: number;
  /** Clock in ms since the epoch; defaults to `Date.now`. */
  now?: () => number;
  /**
   * Calendar anchor (ms): event dates are laid out from the start of its UTC
   * month. Defaults to `now()` at creation, so the catalog stays in the future
   * while staying identical for every world built with the same seed in that
   * month. Pin it to keep ids and titles fixed across months.
   */
  anchor?: number;
}
