import type { Logger } from '../../http/logger';
import type { PublicTrade, Venue } from '../venue.models';
import type { TradeListener } from '../venue-client';

/** How many trade ids the poller remembers to drop repeats (older ones have long left the venue's newest pages). */
const SEEN_MEMORY = 20_000;

export interface TradePollerOptions {
  venue: Venue;
  intervalMs: number;
  /**
   * The venue's newest trades, newest first. It may page further back while
   * `isSeen` says the page holds no trade seen before (trades since the last poll).
   */
  fetchRecent(isSeen: (venueTradeId: string) => boolean): Promise<PublicTrade[]>;
  logger: Logger;
}

/**
 * The live trade feed of a venue without a reachable push channel: while at
 * least one listener is subscribed it polls the venue's recent public trades
 * every `intervalMs`, and hands each trade it has not seen before (by the
 * venue's own trade id) to every listener, oldest first. The first poll only
 * learns what is already there: a subscriber gets the trades made after it
 * subscribed. A failed poll is logged and the next one tries again.
 */
export class TradePoller {
  private readonly listeners = new Set<TradeListener>();
  private readonly seen = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private primed = false;
  private running: Promise<void> | null = null;
  private paused: () => boolean = () => false;

  constructor(private readonly o: TradePollerOptions) {}

  /**
   * While `paused()` holds, the timer's polls are skipped once the tape was learnt (a stream carries
   * the trades); what was learnt is kept, so the first poll after the pause hands on the trades made
   * meanwhile (the ingestion stores each trade once, whichever feed saw it first).
   */
  gate(paused: () => boolean): void {
    this.paused = paused;
  }

  subscribe(listener: TradeListener): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.schedule(0);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  /** Runs one poll now (tests, and the timer). */
  async pollOnce(): Promise<void> {
    this.running ??= this.poll().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // The next subscriber starts from what is there then.
    this.primed = false;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      // Paused, it still learns the tape once, so a later resume hands on what came since.
      void (this.paused() && this.primed ? Promise.resolve() : this.pollOnce()).finally(() => {
        if (this.listeners.size > 0 && this.timer) this.schedule(this.o.intervalMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    let trades: PublicTrade[];
    try {
      trades = await this.o.fetchRecent((id) => this.seen.has(id));
    } catch (err) {
      this.o.logger.warn({ venue: this.o.venue, err }, `${this.o.venue} trade poll failed: ${(err as Error).message}`);
      return;
    }
    const fresh: PublicTrade[] = [];
    for (const t of trades) {
      if (this.seen.has(t.venueTradeId)) continue;
      this.remember(t.venueTradeId);
      fresh.push(t);
    }
    if (!this.primed) {
      this.primed = true;
      return;
    }
    // The venue lists newest first: reversed, then a stable sort keeps its order among equal times.
    fresh.reverse().sort((a, b) => a.filledAt.getTime() - b.filledAt.getTime());
    for (const t of fresh) {
      for (const listener of [...this.listeners]) {
        try {
          listener(t);
        } catch (err) {
          this.o.logger.error({ venue: this.o.venue, err }, 'a trade listener threw');
        }
      }
    }
  }

  private remember(id: string): void {
    this.seen.add(id);
    if (this.seen.size > SEEN_MEMORY) {
      // Sets iterate in insertion order: drop the oldest.
      const oldest = this.seen.values().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
  }
}
