import type { BookLevel, Venue } from '../../venues/venue.models';
import type { VenueClient } from '../../venues/venue-client';

/**
 * Books polled per venue at most: watched markets whose book no stream carries. Each read goes
 * through the venue's shared read cache and rate limit, so this bounds what polling may take of
 * the venue's read budget (50 books every 5 s is 10 reads a second at most).
 */
export const MAX_POLLED_BOOKS = 50;

export interface BookPollingOptions {
  venues: Readonly<Record<Venue, VenueClient>>;
  intervalMs: number;
  onBook(venue: Venue, marketId: string, book: { bids: BookLevel[]; asks: BookLevel[]; at: number }): void;
  onError(venue: Venue, marketId: string, err: unknown): void;
  /** A market is no longer polled (its book is not vouched for by anything now). */
  onDropped(venue: Venue, marketId: string): void;
}

/**
 * What the venues do not stream, polled: the books of watched markets whose venue streams no books
 * (venue_b without its key pair streams only quotes) or whose stream is down, read every
 * `intervalMs` (the trade polling's interval) and handed on as whole books (the keeper publishes
 * the levels that changed).
 */
export class BookPolling {
  private readonly polled = new Map<Venue, Set<string>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: BookPollingOptions) {}

  /** The markets of `venue` to poll from now on (the first of them up to {@link MAX_POLLED_BOOKS}). */
  set(venue: Venue, marketIds: readonly string[]): void {
    const next = new Set(marketIds.slice(0, MAX_POLLED_BOOKS));
    const before = this.polled.get(venue) ?? new Set<string>();
    for (const id of before) if (!next.has(id)) this.o.onDropped(venue, id);
    for (const id of next) if (!before.has(id)) this.readOnce(venue, id);
    if (next.size) this.polled.set(venue, next);
    else this.polled.delete(venue);
    if (this.polled.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    } else if (!this.timer) {
      this.timer = setInterval(() => this.pollAll(), this.o.intervalMs);
      this.timer.unref();
    }
  }

  /** Reads one market's book now. */
  readOnce(venue: Venue, marketId: string): void {
    this.o.venues[venue].getOrderBook(marketId).then(
      (b) => this.o.onBook(venue, marketId, { bids: b.bids, asks: b.asks, at: b.timestamp.getTime() }),
      (err: unknown) => this.o.onError(venue, marketId, err),
    );
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.polled.clear();
  }

  private pollAll(): void {
    for (const [venue, ids] of this.polled) for (const id of ids) this.readOnce(venue, id);
  }
}
