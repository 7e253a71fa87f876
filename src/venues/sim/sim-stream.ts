import type { Venue } from '../venue.models';
import { type VenueClient, VenueUnavailableError } from '../venue-client';
import type { StreamMarket, StreamState, VenueStream, VenueStreamHandlers } from '../venue-stream';
import { BOOK_BUCKET_S } from './sim-book';

/**
 * The simulated world's push channel, speaking as a venue's websocket would: each followed
 * market's whole book when it is first followed, then again each time the world's book moves
 * (the books are redrawn every {@link BOOK_BUCKET_S} seconds; whoever follows turns a new book
 * into the levels that changed). Its trades are the world's live trades, which reach the
 * ingestion through the client's trade feed like a venue's. A venue the world has taken down
 * (`setVenueDown`) is a stream that is down: its books are stale until it is back.
 */
export class SimVenueStream implements VenueStream {
  readonly coverage = { books: true, allTrades: true };
  private readonly markets = new Set<string>();
  private h: VenueStreamHandlers | null = null;
  private timer: NodeJS.Timeout | undefined;
  private state: StreamState = 'connecting';
  private running: Promise<void> = Promise.resolve();

  constructor(
    readonly venue: Venue,
    private readonly client: VenueClient,
    private readonly now: () => number = Date.now,
  ) {}

  start(handlers: VenueStreamHandlers): void {
    this.h = handlers;
    this.setState('up');
    this.schedule();
  }

  follow(markets: readonly StreamMarket[]): void {
    const wanted = new Set(markets.map((m) => m.venueMarketId));
    for (const id of this.markets) if (!wanted.has(id)) this.markets.delete(id);
    const added = [...wanted].filter((id) => !this.markets.has(id));
    for (const id of added) this.markets.add(id);
    if (added.length) {
      this.h?.event({ kind: 'stale', venueMarketIds: added, reason: 'newly followed' });
      this.running = this.running.then(() => this.sendBooks(added));
    }
  }

  /** Resolves once the books asked for so far are sent (tests). */
  settled(): Promise<void> {
    return this.running;
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.h = null;
    await this.running;
  }

  /** Sends every followed market's book now (the timer's work at each bucket; tests moving the world's clock). */
  tick(): Promise<void> {
    this.running = this.running.then(() => this.sendBooks([...this.markets]));
    return this.running;
  }

  private schedule(): void {
    const bucketMs = BOOK_BUCKET_S * 1000;
    const delay = bucketMs - (this.now() % bucketMs) + 1;
    this.timer = setTimeout(() => {
      void this.tick().finally(() => {
        if (this.h) this.schedule();
      });
    }, delay);
    this.timer.unref();
  }

  private async sendBooks(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      if (!this.h || !this.markets.has(id)) continue;
      try {
        const book = await this.client.getOrderBook(id);
        this.setState('up');
        this.h?.event({
          kind: 'book',
          venueMarketId: id,
          bids: book.bids,
          asks: book.asks,
          at: book.timestamp.getTime(),
        });
      } catch (err) {
        if (!(err instanceof VenueUnavailableError)) continue;
        // A simulated outage: the stream is down and no book is vouched for until it is back.
        if (this.state !== 'down') {
          this.setState('down', (err as Error).message);
          this.h?.event({ kind: 'stale', venueMarketIds: [...this.markets], reason: (err as Error).message });
        }
        return;
      }
    }
  }

  private setState(state: StreamState, reason?: string): void {
    if (state === this.state) return;
    this.state = state;
    this.h?.state(state, reason);
  }
}
