import type { PrismaClient } from '../../db/generated/client';
import type { Logger } from '../../http/logger';
import type { PublicTrade, Venue } from '../../venues/venue.models';
import { VENUES } from '../../venues/venue.models';
import type { VenueClient } from '../../venues/venue-client';
import type { StreamState, VenueStream, VenueStreamEvent } from '../../venues/venue-stream';
import type { TradeEvent } from '../trades/trades.models';
import type { MarketBookStore } from './book-store';
import { DEMAND_REFRESH_MS } from './book-store';
import { LiveBook } from './live-book';
import type { MarketPublisher } from './market-publisher';
import { followedMarkets } from './market-set';
import { bookKey, type MarketDemand, type VenueStreamView } from './market-streams.models';
import type { StreamMetrics } from './stream-metrics';
import type { VenueStreamStatus } from './stream-status';
import { BookPolling } from './book-polling';

/** How often the shared copies of the books are written again (ms), well within their lifetime. */
const SHARED_REFRESH_MS = 10_000;
/** Markets followed on demand at most (beyond the most active ones): each costs a book in memory and a subscription. */
const MAX_DEMANDED = 5_000;
/** Trades this much before a stream's outage began are fetched again when it is back (ms): clocks differ. */
const CATCH_UP_MARGIN_MS = 5_000;

export interface MarketKeeperOptions {
  prisma: PrismaClient;
  store: MarketBookStore;
  publisher: MarketPublisher;
  status: VenueStreamStatus;
  metrics: StreamMetrics;
  logger: Logger;
  venues: Readonly<Record<Venue, VenueClient>>;
  sources: Readonly<Record<Venue, 'live' | 'sim'>>;
  /** Each streamed venue's channel, made when the keeper starts. */
  streams: () => Partial<Record<Venue, VenueStream>>;
  /** The most active listed markets followed per venue; the resync wait (ms); the trade polling's interval (ms). */
  settings: { markets: number; resyncMs: number; pollMs: number };
  /** A venue's newest trades back to a time (live venues), for the catch-up after a stream missed some. */
  recentTrades: (venue: Venue, since: number) => Promise<PublicTrade[]> | null;
  now?: () => number;
}

interface VenueRun {
  stream: VenueStream;
  state: StreamState;
  since: number;
  reason: string | null;
  /** When the stream went down (ms), while it is. */
  downAt: number | null;
  everUp: boolean;
  followed: number;
  problemLogged: boolean;
}

/**
 * The holder's side of the market streams: it opens each streamed venue's channel (a live
 * venue's websocket, or the simulated world's), tells it which markets to follow (the catalog's
 * most active, and those clients watch), keeps each market's book from what it says, and hands
 * each change to the publisher. A venue trade goes to the ingestion (stored, then published
 * once on the trades topic, whichever feed saw it first); the trades topic's trades come back as
 * the markets' last price and trade ticks. A book the stream lost is `stale` until the venue's
 * next snapshot; a watched one is read over HTTP after `resyncMs` if that does not come.
 */
export class MarketKeeper {
  private readonly books = new Map<string, LiveBook>();
  private readonly runs = new Map<Venue, VenueRun>();
  private readonly demanded = new Map<string, number>();
  private readonly polling: BookPolling;
  private ingest: ((t: PublicTrade) => void) | null = null;
  private timers: NodeJS.Timeout[] = [];
  private refreshing: Promise<void> = Promise.resolve();
  private readonly now: () => number;

  constructor(private readonly o: MarketKeeperOptions) {
    this.now = o.now ?? Date.now;
    this.polling = new BookPolling({
      venues: o.venues,
      intervalMs: o.settings.pollMs,
      onBook: (venue, marketId, book) => {
        // A read that lands after the stream's own book came back does not replace it.
        const run = this.runs.get(venue);
        const held = this.books.get(bookKey(venue, marketId));
        if (held?.fresh && held.source === 'stream' && run?.state === 'up' && run.stream.coverage.books) return;
        this.onEvent(venue, { kind: 'book', venueMarketId: marketId, ...book }, 'venue');
      },
      onError: (venue, marketId, err) =>
        this.o.metrics.problem(venue, `book read of ${marketId}: ${(err as Error).message}`),
      onDropped: (venue, marketId) => {
        // A quotes-only market goes back to its quotes: the polled levels are not followed any more.
        const book = this.books.get(bookKey(venue, marketId));
        if (!book || this.runs.get(venue)?.stream.coverage.books) return;
        this.lose(book, 'no longer watched');
        book.depth = false;
      },
    });
  }

  /** Whether the streams run in this process. */
  get running(): boolean {
    return this.ingest !== null;
  }

  /** Opens the streams and follows the markets; venue trades go to `ingest`. */
  async start(ingest: (t: PublicTrade) => void): Promise<void> {
    if (this.ingest) return;
    this.ingest = ingest;
    this.o.store.attach(this.books);
    for (const [venue, stream] of Object.entries(this.o.streams()) as [Venue, VenueStream][]) {
      const run: VenueRun = {
        stream,
        state: 'connecting',
        since: this.now(),
        reason: null,
        downAt: null,
        everUp: false,
        followed: 0,
        problemLogged: false,
      };
      this.runs.set(venue, run);
      stream.start({
        event: (e) => this.onEvent(venue, e),
        state: (state, reason) => this.onState(venue, state, reason),
        problem: (text) => this.onProblem(venue, text),
      });
    }
    this.o.status.startRefresh();
    this.timers = [
      setInterval(() => this.o.publisher.refresh(this.books.values()), SHARED_REFRESH_MS),
      setInterval(() => this.sweepDemand(), DEMAND_REFRESH_MS),
    ];
    for (const t of this.timers) t.unref();
    await this.refresh();
  }

  async stop(): Promise<void> {
    if (!this.ingest) return;
    this.ingest = null;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.polling.stop();
    await this.refreshing;
    const runs = [...this.runs.values()];
    this.runs.clear();
    await Promise.all(runs.map((r) => r.stream.stop()));
    await this.o.publisher.settled();
    this.o.store.attach(null);
    this.books.clear();
    this.o.status.stopRefresh();
  }

  /** The catalog changed: the followed markets are chosen again. */
  catalogChanged(): void {
    if (this.running) void this.refresh();
  }

  /** A process asks for a market a client watches (kept for three demand periods). */
  demand(d: MarketDemand): void {
    if (!this.running || !VENUES.includes(d.venue)) return;
    const key = bookKey(d.venue, d.marketId);
    const known = this.demanded.has(key);
    if (!known && this.demanded.size >= MAX_DEMANDED) return;
    this.demanded.set(key, this.now() + 3 * DEMAND_REFRESH_MS);
    if (!known) void this.refresh();
  }

  /** A stored trade (the trades topic): the market's last price and trade ticks. */
  onTrade(t: TradeEvent): void {
    const book = this.books.get(bookKey(t.venue, t.marketId));
    if (!book) return;
    book.lastPrice = t.outcome === 'yes' ? t.price : Math.round((1 - t.price) * 1e6) / 1e6;
    const tick = { id: t.id, side: t.side, outcome: t.outcome, price: t.price, size: t.size, filledAt: t.filledAt };
    this.o.publisher.trade(book, tick);
  }

  /** Resolves once the followed markets are chosen and every change so far is published (tests). */
  async settled(): Promise<void> {
    await this.refreshing;
    await this.o.publisher.settled();
  }

  /** Chooses each venue's followed markets again (one pass at a time). */
  refresh(): Promise<void> {
    this.refreshing = this.refreshing
      .then(() => this.follow())
      .catch((err: unknown) => {
        this.o.logger.error({ err }, 'choosing the markets the venue streams follow failed');
      });
    return this.refreshing;
  }

  private async follow(): Promise<void> {
    for (const [venue, run] of this.runs) {
      const demanded = [...this.demanded.keys()].filter((k) => k.startsWith(`market-book:${venue}:`));
      const ids = demanded.map((k) => k.slice(`market-book:${venue}:`.length));
      const markets = await followedMarkets(this.o.prisma, venue, this.o.settings.markets, ids);
      if (!this.running) return;
      const wanted = new Set(markets.map((m) => bookKey(venue, m.venueMarketId)));
      for (const [key, book] of this.books) {
        if (book.venue !== venue || wanted.has(key)) continue;
        if (book.fresh) this.o.publisher.stale(book, 'no longer followed');
        this.books.delete(key);
        this.o.publisher.forget(key);
      }
      for (const m of markets) {
        const key = bookKey(venue, m.venueMarketId);
        if (this.books.has(key)) continue;
        const book = new LiveBook(venue, m.venueMarketId);
        book.lastPrice = m.lastPrice;
        this.books.set(key, book);
      }
      run.followed = markets.length;
      run.stream.follow(markets);
      this.pollBooks(venue);
      this.report(venue);
    }
  }

  private onEvent(venue: Venue, e: VenueStreamEvent, source: 'stream' | 'venue' = 'stream'): void {
    this.o.metrics.event(venue, e.kind);
    if (e.kind === 'trade') {
      this.ingest?.(e.trade);
      return;
    }
    if (e.kind === 'trade-gap') {
      this.catchUp(venue, e.since, e.reason);
      return;
    }
    if (e.kind === 'stale') {
      for (const id of e.venueMarketIds) this.lose(this.books.get(bookKey(venue, id)), e.reason);
      this.scheduleResync(venue, e.venueMarketIds);
      return;
    }
    const book = this.books.get(bookKey(venue, e.venueMarketId));
    if (!book) return;
    book.at = Math.max(book.at, e.at);
    switch (e.kind) {
      case 'book': {
        const live = book.fresh && book.depth;
        const changes = book.replace(e.bids, e.asks);
        if (e.tickSize !== undefined) book.tickSize = e.tickSize;
        book.fresh = true;
        book.source = source;
        if (live) this.o.publisher.levels(book, changes);
        else {
          this.o.metrics.resynced(venue, source === 'stream' ? 'stream' : 'http');
          this.o.publisher.whole(book);
        }
        return;
      }
      case 'levels':
        if (book.fresh && book.depth) this.o.publisher.levels(book, book.apply(e.changes));
        return;
      case 'quote':
        // With whole books, best bid and ask are the book's own; quotes give the last price.
        if (!book.depth) {
          if (e.bestBid !== undefined) book.bestBid = e.bestBid;
          if (e.bestAsk !== undefined) book.bestAsk = e.bestAsk;
          if (!book.fresh) {
            book.fresh = true;
            this.o.publisher.whole(book);
          }
        }
        if (e.lastPrice !== undefined && e.lastPrice !== null) book.lastPrice = e.lastPrice;
        this.o.publisher.touch(book);
        return;
      case 'tick':
        book.tickSize = e.tickSize;
        this.o.publisher.touch(book);
        return;
    }
  }

  private lose(book: LiveBook | undefined, reason: string): void {
    if (!book || !book.fresh) return;
    book.clear();
    this.o.publisher.stale(book, reason);
  }

  private onState(venue: Venue, state: StreamState, reason?: string): void {
    const run = this.runs.get(venue);
    if (!run) return;
    const was = run.state;
    if (state !== was) run.since = this.now();
    run.state = state;
    if (state === 'down') {
      run.reason = reason ?? 'disconnected';
      run.downAt ??= this.now();
      // Quotes-only markets have no snapshot to wait for: they are not live either (the stream says
      // which whole books it lost: with several connections, not every one is down).
      for (const book of this.books.values()) if (book.venue === venue && !book.depth) this.lose(book, run.reason);
    }
    if (state === 'up') {
      run.problemLogged = false;
      run.reason = null;
      // Back after an outage: the trades made meanwhile are fetched (the ingestion stores each once).
      if (run.downAt !== null && run.everUp) this.catchUp(venue, run.downAt, 'the stream is back');
      run.downAt = null;
      run.everUp = true;
    }
    this.o.metrics.state(venue, state === 'up');
    this.pollBooks(venue);
    this.report(venue);
  }

  private onProblem(venue: Venue, text: string): void {
    this.o.metrics.problem(venue, text);
    const run = this.runs.get(venue);
    if (!run || run.problemLogged) return;
    run.problemLogged = true;
    this.o.logger.warn(
      { venue, problem: text },
      `${venue} stream: ${text} (further ones on this connection are counted)`,
    );
  }

  /** The venue's state as `/health` and every process see it. */
  private report(venue: Venue): void {
    const run = this.runs.get(venue);
    if (!run) return;
    const up = run.state === 'up';
    const live = this.o.sources[venue] === 'live';
    const view: VenueStreamView = {
      venue,
      source: this.o.sources[venue],
      state: run.state,
      since: new Date(run.since).toISOString(),
      reason: run.state === 'up' ? null : run.reason,
      trades: !up ? 'polling' : run.stream.coverage.allTrades || !live ? 'stream' : 'stream and polling',
      books: up && run.stream.coverage.books ? 'stream' : 'on request',
      markets: run.followed,
    };
    this.o.status.report(view);
  }

  /** Fetches the venue's trades since `since` (a live venue whose stream carries them all), for the ingestion. */
  private catchUp(venue: Venue, since: number, reason: string): void {
    const run = this.runs.get(venue);
    if (!run?.stream.coverage.allTrades) return;
    const call = this.o.recentTrades(venue, since - CATCH_UP_MARGIN_MS);
    if (!call) return;
    this.o.logger.info(
      { venue, since: new Date(since).toISOString(), reason },
      `${venue}: fetching the trades a stream missed`,
    );
    call.then(
      (trades) => {
        for (const t of [...trades].reverse()) if (t.filledAt.getTime() >= since - CATCH_UP_MARGIN_MS) this.ingest?.(t);
      },
      (err: unknown) => this.o.logger.warn({ err, venue }, `${venue}: the trades a stream missed could not be fetched`),
    );
  }

  /** Watched markets whose book is still not live after `resyncMs` are read over HTTP. */
  private scheduleResync(venue: Venue, ids: readonly string[]): void {
    const watched = ids.filter((id) => this.demanded.has(bookKey(venue, id)));
    if (watched.length === 0) return;
    const timer = setTimeout(() => {
      if (!this.running) return;
      for (const id of watched) {
        const book = this.books.get(bookKey(venue, id));
        if (book && !book.fresh) this.polling.readOnce(venue, id);
      }
    }, this.o.settings.resyncMs);
    timer.unref();
  }

  /** Watched markets of a venue whose stream carries no books (or is down) have their books polled. */
  private pollBooks(venue: Venue): void {
    const run = this.runs.get(venue);
    const streamed = run?.state === 'up' && run.stream.coverage.books;
    const watched = [...this.demanded.keys()]
      .filter((k) => this.books.has(k) && this.books.get(k)!.venue === venue)
      .map((k) => this.books.get(k)!.marketId);
    this.polling.set(venue, streamed ? [] : watched);
  }

  private sweepDemand(): void {
    const now = this.now();
    let gone = false;
    for (const [key, until] of this.demanded) {
      if (until > now) continue;
      this.demanded.delete(key);
      gone = true;
    }
    if (gone) void this.refresh();
  }
}
