import type { AppError } from '../../errors/app-error';
import type { OrderBook, Venue } from '../../venues/venue.models';
import type { VenueClient, VenueReadOptions } from '../../venues/venue-client';
import { fromVenueError, venueCall } from '../markets/venue-errors';

/** A market a book is asked for: its venue and the venue's id. */
export interface BookRef {
  venue: Venue;
  marketId: string;
}

/**
 * Current order books from the venue clients, with venue failures in the error
 * table: an outage is 503, a market the venue does not know 404, anything
 * else 502.
 */
export class MarketBooks {
  constructor(private readonly venues: Readonly<Record<Venue, VenueClient>>) {}

  /** The market's YES book (full depth); `options.budget` `order` for a live order's own read. */
  get(ref: BookRef, options?: VenueReadOptions): Promise<OrderBook> {
    return venueCall(() => this.venues[ref.venue].getOrderBook(ref.marketId, undefined, options));
  }

  /** Books of many markets in parallel; a failure is returned in place of its book, not thrown. */
  async many(refs: readonly BookRef[]): Promise<(OrderBook | AppError)[]> {
    return Promise.all(
      refs.map((r) =>
        this.venues[r.venue].getOrderBook(r.marketId).then(
          (b) => b,
          (err: unknown) => fromVenueError(err),
        ),
      ),
    );
  }
}
