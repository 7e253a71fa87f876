import type { Cache, PubSub } from '../../infra';
import type { Venue } from '../../venues/venue.models';
import type { LiveBook } from './live-book';
import { bookKey, MARKET_DEMAND_TOPIC, type BookSnapshot, type MarketDemand } from './market-streams.models';

/** How often a watched market's demand is said again (ms); the holder forgets a market not asked for in 3 of these. */
export const DEMAND_REFRESH_MS = 30_000;

/**
 * Each followed market's current book, in every process, without a venue call:
 *
 * - in the process holding the venue streams, the books it keeps (attached by the keeper);
 * - elsewhere (with Redis), the copy the holder writes to the shared cache before it publishes
 *   each update, so a process that subscribed to a market's topic and then read the snapshot
 *   misses no update after it (apply the updates whose `seq` is above the snapshot's).
 *
 * A market no stream holds has no snapshot here (`null`): read the venue (its shared read cache).
 * {@link hold} asks the holder to follow a market while a client watches it.
 */
export class MarketBookStore {
  private local: ReadonlyMap<string, LiveBook> | null = null;
  private readonly holds = new Map<string, { count: number; timer: NodeJS.Timeout }>();

  constructor(
    private readonly pubsub: PubSub,
    /** The shared cache when processes share one (Redis); null in a single process. */
    private readonly shared: Cache | null,
  ) {}

  /** The keeper of this process (the streams' holder) lends its books; `null` when it stops. */
  attach(books: ReadonlyMap<string, LiveBook> | null): void {
    this.local = books;
  }

  /** Whether this process keeps the books itself (it holds the venue streams). */
  get keeping(): boolean {
    return this.local !== null;
  }

  /**
   * The market's current book (each side cut to `depth` levels), or null when no stream holds it
   * live. `withDepth`: only a book whose levels stream (not a market of which only quotes do).
   */
  async snapshot(venue: Venue, marketId: string, depth?: number, withDepth = false): Promise<BookSnapshot | null> {
    const key = bookKey(venue, marketId);
    let snap: BookSnapshot | null = null;
    if (this.local) {
      const book = this.local.get(key);
      snap = book?.fresh ? snapshotOf(book, depth) : null;
    } else if (this.shared) {
      snap = (await this.shared.get<BookSnapshot>(key)) ?? null;
      if (snap && depth !== undefined) snap = { ...snap, bids: cut(snap.bids, depth), asks: cut(snap.asks, depth) };
    }
    return snap && (!withDepth || snap.depth === 'book') ? snap : null;
  }

  /**
   * Asks the holder to follow the market while the returned function is not called (said now and
   * every {@link DEMAND_REFRESH_MS}; several holds of one market in a process are said once).
   */
  hold(venue: Venue, marketId: string): () => void {
    const key = bookKey(venue, marketId);
    const say = () => void this.pubsub.publish<MarketDemand>(MARKET_DEMAND_TOPIC, { venue, marketId }).catch(() => {});
    const held = this.holds.get(key);
    if (held) held.count += 1;
    else {
      say();
      const timer = setInterval(say, DEMAND_REFRESH_MS);
      timer.unref();
      this.holds.set(key, { count: 1, timer });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const h = this.holds.get(key);
      if (!h || --h.count > 0) return;
      clearInterval(h.timer);
      this.holds.delete(key);
    };
  }

  /** Stops saying every hold (shutdown). */
  close(): void {
    for (const h of this.holds.values()) clearInterval(h.timer);
    this.holds.clear();
  }
}

/** A kept book as a snapshot. */
export function snapshotOf(book: LiveBook, depth?: number): BookSnapshot {
  return {
    venue: book.venue,
    marketId: book.marketId,
    seq: book.seq,
    depth: book.depth ? 'book' : 'quotes',
    bids: book.levels('bids', depth),
    asks: book.levels('asks', depth),
    bestBid: book.bestBid,
    bestAsk: book.bestAsk,
    lastPrice: book.lastPrice,
    tickSize: book.tickSize,
    at: book.at,
    source: book.source,
  };
}

function cut<T>(levels: T[], depth: number): T[] {
  return depth < levels.length ? levels.slice(0, Math.max(0, Math.floor(depth))) : levels;
}
