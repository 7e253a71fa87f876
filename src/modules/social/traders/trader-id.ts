import { AppError } from '../../../errors/app-error';
import type { Venue } from '../../../venues/venue.models';

/**
 * Trader identities per venue: venue_a traders are wallets (0x + 40 hex,
 * normalised to lower case); venue_b publishes no identities in its trade
 * feed, but its account handles (3..64 of letters, digits, `_`, `-`) can be
 * followed for the venue's own social features.
 */
export function normalizeTraderId(venue: Venue, traderId: string): string {
  if (venue === 'venue_a') {
    if (!/^0x[0-9a-fA-F]{40}$/.test(traderId))
      throw AppError.badRequest('traderId', 'must be a venue_a wallet (0x and 40 hex digits)');
    return traderId.toLowerCase();
  }
  if (!/^[A-Za-z0-9_-]{3,64}$/.test(traderId)) {
    throw AppError.badRequest('traderId', 'must be a venue_b handle (3 to 64 letters, digits, _ or -)');
  }
  return traderId;
}

/** The normalised id, or null when no trader of the venue can have it. */
export function traderIdOrNull(venue: Venue, traderId: string): string | null {
  try {
    return normalizeTraderId(venue, traderId);
  } catch {
    return null;
  }
}
