import type { ClientRateLimits } from '../auth/rate-limits';
import type { AppConfig } from '../config';
import type { Database } from '../db';
import type { ProcessOwner } from '../db/process-owner';
import type { Logger } from '../http/logger';
import type { Metrics } from '../http/metrics';
import type { Infra, Leases, ReadMemo } from '../infra';
import type { SimulatedWorld } from '../venues';
import type { Venue } from '../venues/venue.models';
import type { VenueClient } from '../venues/venue-client';
import type { Readiness } from './readiness';

/** A per-process memo a module made, as the admin cache policy reports it. */
export interface MemoEntry {
  name: string;
  memo: ReadMemo;
  /** The pub/sub topic that clears it in every process. */
  invalidatedBy: string;
}

/**
 * What every module is built from: the process's shared resources, opened by the
 * composition root before any module and closed after the last one stops.
 */
export interface Platform {
  // Functions are properties, not methods: module factories destructure them (`({ db, memo }) => …`).
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly db: Database;
  /** Cache, pub/sub and rate limiter: Redis when configured, in-process otherwise. */
  readonly infra: Infra;
  /** The simulated venues' world (the demo catalog, books and live trades). */
  readonly world: SimulatedWorld;
  /** Each venue's client: the simulated world's, or the live HTTP client (`VENUE_SOURCE`). */
  readonly venues: Record<Venue, VenueClient>;
  /** Where each venue's data comes from. */
  readonly venueSources: Readonly<Record<Venue, 'sim' | 'live'>>;
  /**
   * What the catalog is built from: the venues and, when every venue is simulated, the world's
   * grouping of their events into core events; with a live venue the catalog job matches them.
   */
  readonly catalogSource: {
    readonly clients: Readonly<Record<Venue, VenueClient>>;
    readonly coreEvents?: SimulatedWorld['coreEvents'];
  };
  /** Per-client limits: the policies the modules declare (`rateLimits`), shared across processes. */
  readonly rateLimits: ClientRateLimits;
  /** The services' clock (tests pin it). */
  readonly now: () => number;
  /**
   * A per-process read memo, cleared in every process when `invalidatedBy` is
   * published (the composition root subscribes it) and listed by the admin cache policy.
   */
  readonly memo: (name: string, invalidatedBy: string, ttlMs?: number) => ReadMemo;
  /** The memos made so far, in the order they were made. */
  readonly memos: () => readonly MemoEntry[];
  /** True once the process began to stop (health reports it; new work is refused). */
  readonly shuttingDown: () => boolean;
  /** Whether this process may take traffic (`/health/ready`); start-up work registers with it. */
  readonly readiness: Readiness;
  /** The leases of the exclusive background tasks (one holder across the processes of a deployment). */
  readonly leases: Leases;
  /**
   * This process among those sharing the database (registered, kept alive by its heartbeat): what it
   * claims names `owner.id`, and is taken over by another process once this one is gone.
   */
  readonly owner: ProcessOwner;
}
