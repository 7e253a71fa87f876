import type { BookLevel } from '../../venues/venue.models';
import { streamItemId, type MarketRef, type MarketStreamItem } from './market-stream.models';
import type { BookSnapshot, MarketUpdate, TradeTick } from './market-streams.models';

/** The first wait before the market's topic is subscribed to again after a failure, and the longest (ms). */
export const SUBSCRIBE_RETRY_MS = 250;
export const SUBSCRIBE_RETRY_MAX_MS = 5_000;

/** Where a follower hands its items: one client's subscription to the market at one depth. */
export interface FollowerSink {
  readonly depth: number;
  push(item: MarketStreamItem): void;
}

/** What a follower needs: the market's topic (subscribed once) and its current book (the store's). */
export interface FollowerSource {
  subscribe(onUpdate: (u: MarketUpdate) => void): Promise<() => Promise<void>>;
  snapshot(): Promise<BookSnapshot | null>;
}

interface Window {
  bids: BookLevel[];
  asks: BookLevel[];
  /** The snapshot item of this window at the current seq, made for the first client that asks. */
  snapshot: MarketStreamItem | null;
  sinks: Set<FollowerSink>;
}

/**
 * One market followed by this process for its clients, however many: one subscription to the
 * market's topic, then its current book (updates at or below the book's `seq` are already in it),
 * then each update applied in `seq` order. A jump in `seq` (updates missed) reads the book again
 * and hands every client a fresh snapshot. Each update becomes one item per depth clients asked
 * for (the same object for all of them): the levels that changed within that many of the best.
 */
export class MarketFollower {
  private readonly bids = new Map<number, number>();
  private readonly asks = new Map<number, number>();
  private readonly windows = new Map<number, Window>();
  /** Clients that came back before the first book was held, with the seq each holds. */
  private readonly resumes = new Map<FollowerSink, number>();
  /** The `seq` of the last update applied; 0 until a book is held. */
  seq = 0;
  /** A live book is held (a snapshot since the last `stale`). */
  live = false;
  private kind: 'book' | 'quotes' = 'book';
  private quote = { bestBid: null as number | null, bestAsk: null as number | null, lastPrice: null as number | null };
  private tickSize: number | null = null;
  private at = 0;
  private reason: string | null = null;
  private buffered: MarketUpdate[] | null = [];
  private resyncing = false;
  private unsubscribe: (() => Promise<void>) | null = null;
  private closed = false;
  private wakeFromPause: (() => void) | null = null;
  readonly ready: Promise<void>;

  constructor(
    readonly market: MarketRef,
    private readonly source: FollowerSource,
    private readonly now: () => number = Date.now,
  ) {
    this.ready = this.start();
  }

  get clients(): number {
    let n = 0;
    for (const w of this.windows.values()) n += w.sinks.size;
    return n;
  }

  /**
   * Adds a client. `resumeSeq`: the last seq it holds (a reconnection); it gets a snapshot unless
   * it holds exactly the current book. Nothing is sent before the first book is held.
   */
  add(sink: FollowerSink, resumeSeq?: number): void {
    let w = this.windows.get(sink.depth);
    if (!w) {
      const [bids, asks] = this.top(sink.depth);
      w = { bids, asks, snapshot: null, sinks: new Set() };
      this.windows.set(sink.depth, w);
    }
    w.sinks.add(sink);
    if (this.seq === 0) {
      if (resumeSeq !== undefined) this.resumes.set(sink, resumeSeq);
      return;
    }
    if (!this.live) sink.push(this.item('stale', [], [], []));
    else if (resumeSeq !== this.seq) sink.push(this.snapshotOf(w));
  }

  remove(sink: FollowerSink): void {
    const w = this.windows.get(sink.depth);
    this.resumes.delete(sink);
    if (!w?.sinks.delete(sink) || w.sinks.size > 0) return;
    this.windows.delete(sink.depth);
  }

  /** The current snapshot item at `depth` (a client that fell behind starts over from it). */
  current(depth: number): MarketStreamItem | null {
    const w = this.windows.get(depth);
    if (!w || this.seq === 0) return null;
    return this.live ? this.snapshotOf(w) : this.item('stale', [], [], []);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wakeFromPause?.();
    this.windows.clear();
    await this.ready.catch(() => undefined);
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private async start(): Promise<void> {
    for (let attempt = 0; !this.unsubscribe; attempt += 1) {
      try {
        this.unsubscribe = await this.source.subscribe((u) => this.onUpdate(u));
      } catch {
        // The pub/sub cannot be reached (Redis down): its clients keep their streams (heartbeats)
        // and the subscription is tried again, with jittered backoff, until it is made or closed.
        const ms = Math.min(SUBSCRIBE_RETRY_MAX_MS, SUBSCRIBE_RETRY_MS * 2 ** Math.min(attempt, 8));
        await this.pause(ms * (0.5 + Math.random() / 2));
        if (this.closed) return;
      }
    }
    if (this.closed) {
      await this.unsubscribe();
      this.unsubscribe = null;
      return;
    }
    await this.resync();
  }

  /** Waits `ms`, or until {@link close}. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeFromPause = null;
        resolve();
      }, ms);
      timer.unref();
      this.wakeFromPause = () => {
        clearTimeout(timer);
        this.wakeFromPause = null;
        resolve();
      };
    });
  }

  private onUpdate(u: MarketUpdate): void {
    if (this.closed) return;
    if (this.buffered) this.buffered.push(u);
    else this.apply(u);
  }

  /** Reads the book, takes it as the base (unless updates already went past it) and applies what waited. */
  private async resync(): Promise<void> {
    this.resyncing = true;
    this.buffered ??= [];
    let snap: BookSnapshot | null = null;
    try {
      snap = await this.source.snapshot();
    } finally {
      const waiting = this.buffered;
      this.buffered = null;
      this.resyncing = false;
      if (!this.closed) {
        if (snap && snap.seq > this.seq) this.base(snap);
        for (const u of waiting) this.apply(u);
      }
    }
  }

  private base(snap: BookSnapshot): void {
    setAll(this.bids, snap.bids);
    setAll(this.asks, snap.asks);
    this.seq = snap.seq;
    this.live = true;
    this.kind = snap.depth;
    this.quote = { bestBid: snap.bestBid, bestAsk: snap.bestAsk, lastPrice: snap.lastPrice };
    this.tickSize = snap.tickSize;
    this.at = snap.at;
    this.reason = null;
    this.publish('snapshot', [], this.now());
  }

  private apply(u: MarketUpdate): void {
    if (u.seq <= this.seq) return;
    if (u.kind === 'delta' && (!this.live || u.seq !== this.seq + 1)) {
      // Updates were missed (or the book is not held): read it again, then go on from there.
      if (!this.resyncing) void this.resync().catch(() => undefined);
      else this.buffered?.push(u);
      return;
    }
    this.seq = u.seq;
    this.kind = u.depth;
    this.quote = { bestBid: u.bestBid, bestAsk: u.bestAsk, lastPrice: u.lastPrice };
    this.tickSize = u.tickSize;
    this.at = u.at;
    if (u.kind === 'stale') {
      this.bids.clear();
      this.asks.clear();
      this.live = false;
      this.reason = u.reason ?? null;
    } else if (u.kind === 'snapshot') {
      setAll(this.bids, u.bids);
      setAll(this.asks, u.asks);
      this.live = true;
      this.reason = null;
    } else {
      for (const l of u.bids) setLevel(this.bids, l);
      for (const l of u.asks) setLevel(this.asks, l);
    }
    this.publish(u.kind, u.trades, u.receivedAt);
  }

  /** One item per depth asked for, handed to each of its clients. */
  private publish(kind: MarketStreamItem['kind'], trades: TradeTick[], receivedAt: number): void {
    for (const [depth, w] of this.windows) {
      const [bids, asks] = this.top(depth);
      let item: MarketStreamItem;
      if (kind === 'stale') item = this.item('stale', [], [], trades, receivedAt);
      else if (kind === 'snapshot') item = this.item('snapshot', bids, asks, trades, receivedAt);
      else item = this.item('delta', changed(w.bids, bids), changed(w.asks, asks), trades, receivedAt);
      w.bids = bids;
      w.asks = asks;
      w.snapshot = kind === 'snapshot' ? { ...item, trades: [] } : null;
      for (const sink of w.sinks) if (this.resumes.get(sink) !== this.seq) sink.push(item);
    }
    this.resumes.clear();
  }

  private snapshotOf(w: Window): MarketStreamItem {
    w.snapshot ??= this.item('snapshot', w.bids, w.asks, [], this.now());
    return w.snapshot;
  }

  private item(
    kind: MarketStreamItem['kind'],
    bids: BookLevel[],
    asks: BookLevel[],
    trades: TradeTick[],
    receivedAt = this.now(),
  ): MarketStreamItem {
    const { venue, marketId } = this.market;
    return {
      id: streamItemId(venue, marketId, this.seq),
      venue,
      marketId,
      seq: this.seq,
      kind,
      depth: this.kind,
      bids,
      asks,
      ...this.quote,
      tickSize: this.tickSize,
      trades,
      at: this.at,
      receivedAt,
      reason: kind === 'stale' ? this.reason : null,
    };
  }

  /** The best `depth` levels of each side (bids highest first, asks lowest first). */
  private top(depth: number): [BookLevel[], BookLevel[]] {
    return [best(this.bids, depth, true), best(this.asks, depth, false)];
  }
}

function best(side: Map<number, number>, depth: number, desc: boolean): BookLevel[] {
  const prices = [...side.keys()].sort(desc ? (a, b) => b - a : (a, b) => a - b);
  return prices.slice(0, depth).map((price) => ({ price, size: side.get(price)! }));
}

function setAll(side: Map<number, number>, levels: readonly BookLevel[]): void {
  side.clear();
  for (const l of levels) setLevel(side, l);
}

function setLevel(side: Map<number, number>, l: BookLevel): void {
  if (l.size > 0) side.set(l.price, l.size);
  else side.delete(l.price);
}

/** The levels of `next` that differ from `before`, and those of `before` it no longer holds (size 0). */
function changed(before: readonly BookLevel[], next: readonly BookLevel[]): BookLevel[] {
  const was = new Map(before.map((l) => [l.price, l.size]));
  const out: BookLevel[] = [];
  const seen = new Set<number>();
  for (const l of next) {
    seen.add(l.price);
    if (was.get(l.price) !== l.size) out.push(l);
  }
  for (const l of before) if (!seen.has(l.price)) out.push({ price: l.price, size: 0 });
  return out;
}
