import type { PushSource } from '../../http/push-source';
import type { PubSub } from '../../infra';
import type { MarketBookStore } from './book-store';
import { MarketFollower, type FollowerSink } from './market-follower';
import type { MarketRef, MarketStreamItem } from './market-stream.models';
import { bookKey, marketTopic, type MarketUpdate } from './market-streams.models';

/**
 * Items a client has not taken yet beyond which what it holds is dropped and it starts over from
 * each market's current snapshot (a client that reads slowly gets the book as it is now, not a
 * growing backlog of changes).
 */
export const MAX_QUEUED_ITEMS = 256;

interface Followed {
  follower: MarketFollower;
  /** Stops asking the holder to follow the market. */
  release: () => void;
}

/**
 * The markets this process follows for its stream clients: one {@link MarketFollower} per
 * market (one subscription to its topic, one demand to the holder) however many clients watch
 * it, made for the first and closed after the last.
 */
export class MarketFollowers {
  private readonly followed = new Map<string, Followed>();

  constructor(
    private readonly pubsub: PubSub,
    private readonly store: MarketBookStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Markets followed now (each one subscription to its topic). */
  get markets(): number {
    return this.followed.size;
  }

  /** Clients of one market now. */
  clientsOf(m: MarketRef): number {
    return this.followed.get(bookKey(m.venue, m.marketId))?.follower.clients ?? 0;
  }

  /**
   * A client's stream of `markets` with `depth` levels per side: each market's snapshot once its
   * book is held, then its changes. `resume`: the last item the client got (a reconnection): that
   * market goes on without a snapshot when nothing was missed since.
   */
  watch(
    markets: readonly MarketRef[],
    depth: number,
    resume?: MarketRef & { seq: number },
  ): AsyncIterableIterator<MarketStreamItem> {
    const client = new ClientQueue(depth, () => this.restart(client, markets, depth));
    for (const m of markets) {
      const { follower } = this.followerOf(m);
      const resumes = resume && resume.venue === m.venue && resume.marketId === m.marketId;
      follower.add(client, resumes ? resume.seq : undefined);
    }
    client.onEnd(() => {
      for (const m of markets) this.leave(m, client);
    });
    return client;
  }

  /** Stops following every market (shutdown). */
  async close(): Promise<void> {
    const all = [...this.followed.values()];
    this.followed.clear();
    await Promise.all(
      all.map((f) => {
        f.release();
        return f.follower.close();
      }),
    );
  }

  private followerOf(m: MarketRef): Followed {
    const key = bookKey(m.venue, m.marketId);
    let f = this.followed.get(key);
    if (!f) {
      const topic = marketTopic(m.venue, m.marketId);
      const follower = new MarketFollower(
        m,
        {
          subscribe: (onUpdate) => this.pubsub.subscribe<MarketUpdate>(topic, onUpdate),
          snapshot: () => this.store.snapshot(m.venue, m.marketId),
        },
        this.now,
      );
      // The follower tries its subscription again while the pub/sub is down; a failed first read of
      // the book leaves it waiting for the next update (a gap reads the book again).
      follower.ready.catch(() => undefined);
      f = { follower, release: this.store.hold(m.venue, m.marketId) };
      this.followed.set(key, f);
    }
    return f;
  }

  private leave(m: MarketRef, client: FollowerSink): void {
    const key = bookKey(m.venue, m.marketId);
    const f = this.followed.get(key);
    if (!f) return;
    f.follower.remove(client);
    if (f.follower.clients > 0) return;
    this.followed.delete(key);
    f.release();
    void f.follower.close().catch(() => undefined);
  }

  /** A client that fell behind: what it holds is dropped, it gets each market's current snapshot. */
  private restart(client: ClientQueue, markets: readonly MarketRef[], depth: number): void {
    for (const m of markets) {
      const item = this.followed.get(bookKey(m.venue, m.marketId))?.follower.current(depth);
      if (item) client.push(item);
    }
  }
}

/**
 * One client's items, as the async iterator a subscription returns (`return()` ends it), or handed
 * to a listener as the follower publishes them ({@link PushSource}: one loop over a market's
 * clients per update).
 */
class ClientQueue implements FollowerSink, PushSource<MarketStreamItem> {
  private readonly queue: MarketStreamItem[] = [];
  private wake: ((r: IteratorResult<MarketStreamItem>) => void) | null = null;
  private listener: ((item: MarketStreamItem) => void) | null = null;
  private done = false;
  private ended: (() => void) | null = null;

  constructor(
    readonly depth: number,
    private readonly fellBehind: () => void,
  ) {}

  onEnd(fn: () => void): void {
    this.ended = fn;
  }

  listen(onItem: (item: MarketStreamItem) => void): void {
    this.listener = onItem;
    for (const item of this.queue.splice(0)) onItem(item);
  }

  push(item: MarketStreamItem): void {
    if (this.done) return;
    if (this.listener) {
      this.listener(item);
      return;
    }
    if (this.wake) {
      const wake = this.wake;
      this.wake = null;
      wake({ done: false, value: item });
      return;
    }
    this.queue.push(item);
    if (this.queue.length > MAX_QUEUED_ITEMS) {
      this.queue.length = 0;
      this.fellBehind();
    }
  }

  next(): Promise<IteratorResult<MarketStreamItem>> {
    const item = this.queue.shift();
    if (item) return Promise.resolve({ done: false, value: item });
    if (this.done) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => (this.wake = resolve));
  }

  return(): Promise<IteratorResult<MarketStreamItem>> {
    if (!this.done) {
      this.done = true;
      this.queue.length = 0;
      this.wake?.({ done: true, value: undefined });
      this.wake = null;
      this.ended?.();
    }
    return Promise.resolve({ done: true, value: undefined });
  }

  throw(): Promise<IteratorResult<MarketStreamItem>> {
    return this.return();
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<MarketStreamItem> {
    return this;
  }
}
