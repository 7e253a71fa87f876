import { AppError } from '../../errors/app-error';
import type { Venue } from '../../venues/venue.models';
import type { ExecutionMode } from './execution.limits';

/**
 * Where this deployment's venues are the simulator (`VENUE_SOURCE` /
 * `VENUE_A_SOURCE` / `VENUE_B_SOURCE` = `sim`), and whether it runs in production.
 */
export interface SimulatedVenues {
  venues: readonly Venue[];
  production: boolean;
}

/**
 * Live orders never settle in the withdrawable USD balance on fills the
 * simulator made up:
 * - in production a live order on a simulated venue is a 409 before anything
 *   is held or written (its markets exist on no real venue);
 * - elsewhere a live order on the simulated venue_b (whose live orders the
 *   simulator would fill in-process) runs in simulation mode: it settles in the
 *   caller's paper account, and its order says `mode: simulation`;
 * - live venue_a orders go to the execution service (EXECUTION_SERVICE_URL),
 *   never to the simulator: outside production they stay live.
 *
 * Returns the mode the order runs in.
 */
export function modeOnVenue(rule: SimulatedVenues | undefined, venue: Venue, mode: ExecutionMode): ExecutionMode {
  if (mode !== 'live' || !rule?.venues.includes(venue)) return mode;
  if (rule.production)
    throw AppError.conflict(`${venue} is simulated here: live orders need a live venue (use mode=simulation)`);
  return venue === 'venue_b' ? 'simulation' : 'live';
}

/**
 * A live position sells live: where live orders on its venue would run in the
 * paper account (see {@link modeOnVenue}), selling it is a 409 (the position
 * was opened before that rule; the paper account does not hold it).
 */
export function checkLivePositionSell(rule: SimulatedVenues | undefined, venue: Venue): void {
  if (modeOnVenue(rule, venue, 'live') !== 'live')
    throw AppError.conflict(
      `${venue} is simulated here: its live orders settle in the paper account, so this live position ` +
        `(opened before that rule) does not sell`,
    );
}
