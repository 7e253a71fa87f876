import type { Cache, PubSub } from '../../infra';
import type { Venue } from '../../venues/venue.models';
import type { LevelChange } from '../../venues/venue-stream';
import { snapshotOf } from './book-store';
import type { LiveBook } from './live-book';
import { bookKey, marketTopic, type MarketUpdate, type TradeTick } from './market-streams.models';

/** How long the shared copy of a book lives without being written again (ms). */
export const SHARED_BOOK_TTL_MS = 30_000;

interface Pending {
  book: LiveBook;
  whole: boolean;
  stale: string | null;
  bids: Map<number, number>;
  asks: Map<number, number>;
  trades: TradeTick[];
  receivedAt: number;
}

interface Published {
  bestBid: number | null;
  bestAsk: number | null;
  lastPrice: number | null;
  tickSize: number | null;
}

export interface PublisherMetrics {
  published(venue: Venue, kind: MarketUpdate['kind']): void;
  failed(err: unknown): void;
}

/**
 * Turns the changes of each market made in one turn of the event loop into one
 * {@link MarketUpdate} (the next `seq` of the market) and publishes it once on the market's topic.
 * With a shared cache (Redis) the market's current book is written there first, so a process that
 * subscribed and then read the copy misses nothing after it; a market's writes and publications
 * stay in order (one chain per market). Level sizes are absolute: an update whose changes a
 * snapshot already holds does no harm applied again.
 */
export class MarketPublisher {
  private readonly pending = new Map<string, Pending>();
  private readonly published = new Map<string, Published>();
  private readonly chains = new Map<string, Promise<void>>();
  private scheduled = false;

  constructor(
    private readonly pubsub: PubSub,
    private readonly shared: Cache | null,
    private readonly metrics: PublisherMetrics,
    private readonly now: () => number = Date.now,
    /** Skips the encoding of updates nobody in this single process listens to. */
    private readonly localOnly = false,
  ) {}

  /** The market's whole book goes out (it was not live before). */
  whole(book: LiveBook): void {
    const p = this.pendingOf(book);
    p.whole = true;
    p.stale = null;
  }

  /** Levels changed (absolute sizes). */
  levels(book: LiveBook, changes: readonly LevelChange[]): void {
    const p = this.pendingOf(book);
    for (const c of changes) (c.side === 'bids' ? p.bids : p.asks).set(c.price, c.size);
  }

  /** Quotes, tick or last price may have changed (published only if they did). */
  touch(book: LiveBook): void {
    this.pendingOf(book);
  }

  trade(book: LiveBook, trade: TradeTick): void {
    this.pendingOf(book).trades.push(trade);
  }

  /** The book is not live any more (`reason`); its shared copy goes. */
  stale(book: LiveBook, reason: string): void {
    const p = this.pendingOf(book);
    p.stale = reason;
    p.whole = false;
    p.bids.clear();
    p.asks.clear();
  }

  /** Writes the shared copy of every live book again (their copies expire otherwise). */
  refresh(books: Iterable<LiveBook>): void {
    const shared = this.shared;
    if (!shared) return;
    for (const book of books) {
      if (!book.fresh || book.seq === 0) continue;
      const key = bookKey(book.venue, book.marketId);
      this.chain(key, () => shared.set(key, snapshotOf(book), SHARED_BOOK_TTL_MS));
    }
  }

  /** Resolves when everything handed in so far is published (tests, shutdown). */
  async settled(): Promise<void> {
    this.flush();
    await Promise.all([...this.chains.values()]);
  }

  /** Forgets a market (no longer followed). */
  forget(key: string): void {
    this.published.delete(key);
  }

  private pendingOf(book: LiveBook): Pending {
    const key = bookKey(book.venue, book.marketId);
    let p = this.pending.get(key);
    if (!p) {
      p = {
        book,
        whole: false,
        stale: null,
        bids: new Map(),
        asks: new Map(),
        trades: [],
        receivedAt: this.now(),
      };
      this.pending.set(key, p);
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    return p;
  }

  private flush(): void {
    this.scheduled = false;
    const batch = [...this.pending.entries()];
    this.pending.clear();
    for (const [key, p] of batch) {
      const update = this.updateOf(key, p);
      if (!update) continue;
      this.metrics.published(update.venue, update.kind);
      const topic = marketTopic(update.venue, update.marketId);
      const listened = !this.localOnly || this.pubsub.listenerCount(topic) > 0;
      const copy = update.kind === 'stale' ? null : snapshotOf(p.book);
      this.chain(key, async () => {
        if (this.shared) {
          if (copy) await this.shared.set(key, copy, SHARED_BOOK_TTL_MS);
          else await this.shared.del(key);
        }
        if (listened) await this.pubsub.publish(topic, update);
      });
    }
  }

  private updateOf(key: string, p: Pending): MarketUpdate | null {
    const b = p.book;
    const quote: Published = { bestBid: b.bestBid, bestAsk: b.bestAsk, lastPrice: b.lastPrice, tickSize: b.tickSize };
    const before = this.published.get(key);
    const kind: MarketUpdate['kind'] = p.stale !== null ? 'stale' : p.whole ? 'snapshot' : 'delta';
    if (
      kind === 'delta' &&
      p.bids.size === 0 &&
      p.asks.size === 0 &&
      p.trades.length === 0 &&
      before &&
      sameQuote(before, quote)
    ) {
      return null;
    }
    this.published.set(key, quote);
    // A market's first update of this holder opens its numbering above any earlier holder's.
    b.seq = b.seq === 0 ? this.now() * 1000 : b.seq + 1;
    const levels = (m: Map<number, number>, side: 'bids' | 'asks') =>
      [...m]
        .map(([price, size]) => ({ price, size }))
        .sort(side === 'bids' ? (x, y) => y.price - x.price : (x, y) => x.price - y.price);
    return {
      venue: b.venue,
      marketId: b.marketId,
      seq: b.seq,
      kind,
      depth: b.depth ? 'book' : 'quotes',
      bids: kind === 'snapshot' ? b.levels('bids') : kind === 'delta' ? levels(p.bids, 'bids') : [],
      asks: kind === 'snapshot' ? b.levels('asks') : kind === 'delta' ? levels(p.asks, 'asks') : [],
      ...quote,
      trades: p.trades,
      at: b.at,
      receivedAt: p.receivedAt,
      ...(p.stale !== null && { reason: p.stale }),
    };
  }

  private chain(key: string, work: () => Promise<void>): void {
    const next = (this.chains.get(key) ?? Promise.resolve())
      .then(work)
      .catch((err: unknown) => this.metrics.failed(err));
    this.chains.set(key, next);
    void next.then(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
  }
}

function sameQuote(a: Published, b: Published): boolean {
  return a.bestBid === b.bestBid && a.bestAsk === b.bestAsk && a.lastPrice === b.lastPrice && a.tickSize === b.tickSize;
}
