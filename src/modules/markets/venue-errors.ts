import { AppError } from '../../errors/app-error';
import { VenueMarketNotFoundError, VenueUnavailableError } from '../../venues/venue-client';

/**
 * A venue client's failure in the error table: an outage is a dependency
 * being unavailable (503), a market the venue does not know is a 404, and
 * anything else from a venue is an upstream failure (502).
 */
export function fromVenueError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof VenueUnavailableError) return AppError.unavailable(`${err.venue} is unavailable`);
  if (err instanceof VenueMarketNotFoundError) return AppError.notFound(`market ${err.venue}:${err.venueMarketId}`);
  return AppError.upstream('the venue failed to answer');
}

/** Runs a venue call, translating its failure with {@link fromVenueError}. */
export async function venueCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw fromVenueError(err);
  }
}
