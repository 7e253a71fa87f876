import type { Logger } from '../../http/logger';
import type { PubSub } from '../../infra';
import { VENUES, type Venue } from '../../venues/venue.models';
import { VENUE_STREAMS_TOPIC, type VenueStreamView } from './market-streams.models';

/** How often the holder says each stream's state again (ms). */
export const STATUS_REFRESH_MS = 5_000;
/** How long a process believes the last state it heard: three missed refreshes mean no holder says. */
export const STATUS_BELIEVED_MS = 3 * STATUS_REFRESH_MS;

export interface VenueStreamStatusOptions {
  pubsub: PubSub;
  logger: Logger;
  now: () => number;
  /** Each venue's source, and whether it has a stream at all (`VENUE_STREAMS`, a live venue handed in without one). */
  venues: Record<Venue, { source: 'live' | 'sim'; streamed: boolean }>;
  /** The trade polling's interval (ms), for the log line of a stream going down. */
  pollMs: number;
}

/**
 * Where each venue's live data comes from, in every process. The holder of the venue streams
 * reports each stream's state ({@link report}): it is logged once per change between up and
 * down (not per reconnect attempt), and published on {@link VENUE_STREAMS_TOPIC} on a change and
 * every {@link STATUS_REFRESH_MS}. Every process keeps what it heard for {@link STATUS_BELIEVED_MS};
 * past that (the holder died, or none runs) a venue's state is `unknown` and its trades are
 * polled. `/health` shows {@link view}; the trade polling of a venue whose stream carries every
 * trade pauses while {@link tradesStreamed}.
 */
export class VenueStreamStatus {
  private readonly heard = new Map<Venue, { view: VenueStreamView; until: number }>();
  private readonly own = new Map<Venue, VenueStreamView>();
  private readonly logged = new Map<Venue, 'up' | 'down'>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: VenueStreamStatusOptions) {}

  /** The holder's word on a venue's stream: kept, logged on a change between up and down, published on a change. */
  report(view: VenueStreamView): void {
    const before = this.own.get(view.venue);
    this.own.set(view.venue, view);
    this.receive(view);
    this.log(view);
    if (!before || !sameView(before, view)) this.publish([view]);
  }

  /** Starts saying the reported states again every {@link STATUS_REFRESH_MS} (the holder, while it holds). */
  startRefresh(): void {
    clearInterval(this.timer);
    this.timer = setInterval(() => this.publish([...this.own.values()]), STATUS_REFRESH_MS);
    this.timer.unref();
  }

  /** The holder stops: other processes are told at once that nobody streams (their polling resumes). */
  stopRefresh(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    const gone = [...this.own.values()].map((v) => this.fallback(v.venue, 'unknown'));
    this.own.clear();
    this.logged.clear();
    for (const v of gone) this.heard.delete(v.venue);
    this.publish(gone);
  }

  /** A state heard on the topic (or reported here). */
  receive(view: VenueStreamView): void {
    if (!VENUES.includes(view.venue)) return;
    this.heard.set(view.venue, { view, until: this.o.now() + STATUS_BELIEVED_MS });
  }

  /** Each venue's state as this process knows it. */
  view(): VenueStreamView[] {
    return VENUES.map((venue) => this.of(venue));
  }

  of(venue: Venue): VenueStreamView {
    if (!this.o.venues[venue].streamed) return this.fallback(venue, 'off');
    const h = this.heard.get(venue);
    return h && h.until > this.o.now() ? h.view : this.fallback(venue, 'unknown');
  }

  /** Whether a stream carries every live trade of the venue now (its trade polling pauses meanwhile). */
  tradesStreamed(venue: Venue): boolean {
    return this.of(venue).trades === 'stream';
  }

  private fallback(venue: Venue, state: 'off' | 'unknown'): VenueStreamView {
    return {
      venue,
      source: this.o.venues[venue].source,
      state,
      since: null,
      reason: null,
      trades: 'polling',
      books: 'on request',
      markets: 0,
    };
  }

  private publish(views: VenueStreamView[]): void {
    if (views.length === 0) return;
    this.o.pubsub
      .publishMany(VENUE_STREAMS_TOPIC, views)
      .catch((err: unknown) => this.o.logger.warn({ err }, 'venue stream status not published'));
  }

  private log(view: VenueStreamView): void {
    const state = view.state === 'up' ? 'up' : view.state === 'down' ? 'down' : null;
    if (!state || this.logged.get(view.venue) === state) return;
    this.logged.set(view.venue, state);
    const fields = { venue: view.venue, source: view.source, markets: view.markets, trades: view.trades };
    if (state === 'up') {
      this.o.logger.info(fields, `${view.venue} stream up: trades from ${view.trades}, books ${view.books}`);
    } else {
      this.o.logger.warn(
        { ...fields, reason: view.reason },
        `${view.venue} stream down (${view.reason ?? 'unknown reason'}): trades polled every ` +
          `${this.o.pollMs} ms and books read on request until it is back`,
      );
    }
  }
}

function sameView(a: VenueStreamView, b: VenueStreamView): boolean {
  return (
    a.state === b.state &&
    a.trades === b.trades &&
    a.books === b.books &&
    a.markets === b.markets &&
    a.reason === b.reason &&
    a.since === b.since
  );
}
