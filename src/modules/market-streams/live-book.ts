import type { BookLevel, Venue } from '../../venues/venue.models';
import type { LevelChange } from '../../venues/venue-stream';

/**
 * One market's book as the holder keeps it: YES levels by price, the best of each side, the last
 * price and tick, whether a whole book was received (`depth`) and whether it is live (`fresh`).
 * Changes report what they did, so only real changes are published.
 */
export class LiveBook {
  private readonly bids = new Map<number, number>();
  private readonly asks = new Map<number, number>();
  /** A whole book was received: levels stream (otherwise only quotes do). */
  depth = false;
  /** Vouched for by the stream now (a book since the last time it was lost). */
  fresh = false;
  bestBid: number | null = null;
  bestAsk: number | null = null;
  lastPrice: number | null = null;
  tickSize: number | null = null;
  /** The `seq` of the last update published; 0 before the first. */
  seq = 0;
  /** The venue's time of the newest change (ms). */
  at = 0;
  source: 'stream' | 'venue' = 'stream';

  constructor(
    readonly venue: Venue,
    readonly marketId: string,
  ) {}

  /** Replaces the whole book; returns the levels that differ from what was held (new size, 0 = gone). */
  replace(bids: readonly BookLevel[], asks: readonly BookLevel[]): LevelChange[] {
    const changes = [...diff(this.bids, bids, 'bids'), ...diff(this.asks, asks, 'asks')];
    setAll(this.bids, bids);
    setAll(this.asks, asks);
    this.depth = true;
    this.refreshBest();
    return changes;
  }

  /** Applies levels at their new size; returns those that changed something. */
  apply(changes: readonly LevelChange[]): LevelChange[] {
    const done: LevelChange[] = [];
    for (const c of changes) {
      const side = c.side === 'bids' ? this.bids : this.asks;
      const before = side.get(c.price) ?? 0;
      if (before === c.size) continue;
      if (c.size > 0) side.set(c.price, c.size);
      else side.delete(c.price);
      done.push(c);
    }
    if (done.length) this.refreshBest();
    return done;
  }

  /** Forgets the levels (the book is not live); best bid and ask go with them, the last price stays. */
  clear(): void {
    this.bids.clear();
    this.asks.clear();
    this.fresh = false;
    if (this.depth) {
      this.bestBid = null;
      this.bestAsk = null;
    }
  }

  /** A side's levels, best first, `depth` at most. */
  levels(side: 'bids' | 'asks', depth = Infinity): BookLevel[] {
    const out = [...(side === 'bids' ? this.bids : this.asks)].map(([price, size]) => ({ price, size }));
    out.sort(side === 'bids' ? (a, b) => b.price - a.price : (a, b) => a.price - b.price);
    return depth < out.length ? out.slice(0, Math.max(0, Math.floor(depth))) : out;
  }

  private refreshBest(): void {
    let bid: number | null = null;
    for (const p of this.bids.keys()) if (bid === null || p > bid) bid = p;
    let ask: number | null = null;
    for (const p of this.asks.keys()) if (ask === null || p < ask) ask = p;
    this.bestBid = bid;
    this.bestAsk = ask;
  }
}

function setAll(side: Map<number, number>, levels: readonly BookLevel[]): void {
  side.clear();
  for (const l of levels) if (l.size > 0) side.set(l.price, l.size);
}

function diff(held: Map<number, number>, next: readonly BookLevel[], side: 'bids' | 'asks'): LevelChange[] {
  const out: LevelChange[] = [];
  const seen = new Set<number>();
  for (const l of next) {
    if (!(l.size > 0)) continue;
    seen.add(l.price);
    if (held.get(l.price) !== l.size) out.push({ side, price: l.price, size: l.size });
  }
  for (const price of held.keys()) if (!seen.has(price)) out.push({ side, price, size: 0 });
  return out;
}
