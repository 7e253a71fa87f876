import type { Redis } from 'ioredis';
import { asError } from './cache-support';
import { decodeEnvelope, encodeEnvelope } from './pubsub-envelope';
import { deliver, listenerEntry, TopicIterators, type ListenerEntry, type PubSubOptions } from './pubsub-support';
import type { PubSub, PubSubIterator, Unsubscribe } from './pubsub.types';
import { closeRedisClient } from './redis-connection';

/** Local listeners of one Redis channel; the channel is subscribed while this exists. */
interface ChannelState {
  readonly topic: string;
  readonly listeners: Set<ListenerEntry>;
  /** Settles when Redis has answered the SUBSCRIBE for this channel. */
  readonly confirmed: Promise<void>;
}

/**
 * Redis pub/sub over two connections: `publisher` (shared with the other
 * components; any connection may PUBLISH) and a dedicated `subscriber`, which
 * Redis restricts to subscribe commands once it subscribed to anything.
 * Local listeners are reference-counted per channel, so Redis sees one
 * SUBSCRIBE per channel however many listeners this process has, and an
 * UNSUBSCRIBE when the last one leaves.
 */
export class RedisPubSub implements PubSub {
  private readonly channels = new Map<string, ChannelState>();
  private readonly iterators: TopicIterators;
  private closed = false;

  /**
   * @param publisher connection used for PUBLISH; not closed by this class.
   * @param subscriber dedicated connection, created with `createRedisClient(url, 'subscriber')`; closed by {@link
   * close}.
   */
  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly keyPrefix: string,
    private readonly options: PubSubOptions,
  ) {
    this.subscriber.on('message', (channel: string, message: string) => this.onMessage(channel, message));
    this.iterators = new TopicIterators((topic, listener) => this.subscribe(topic, listener), options);
  }

  async publish<T>(topic: string, payload: T): Promise<void> {
    this.assertOpen();
    // Wall clock: the lag metric compares it with the receiver's wall clock.
    await this.publisher.publish(this.channelOf(topic), encodeEnvelope(payload, Date.now()));
  }

  async publishMany<T>(topic: string, payloads: readonly T[]): Promise<void> {
    this.assertOpen();
    const at = Date.now();
    const raws = payloads.map((p) => encodeEnvelope(p, at));
    if (raws.length === 0) return;
    const channel = this.channelOf(topic);
    const tx = this.publisher.multi();
    for (const raw of raws) tx.publish(channel, raw);
    const replies = await tx.exec();
    // EXEC answers null when the transaction was discarded; a command's own error comes back in its slot.
    if (replies === null) throw new Error('pub/sub batch was not applied (EXEC aborted)');
    const failed = replies.find(([err]) => err);
    if (failed) throw asError(failed[0]);
  }

  async subscribe<T>(topic: string, listener: (payload: T) => void): Promise<Unsubscribe> {
    this.assertOpen();
    const channel = this.channelOf(topic);
    const state = this.channels.get(channel) ?? this.openChannel(channel, topic);
    const entry = listenerEntry(listener);
    state.listeners.add(entry);
    try {
      // Resolve only once Redis confirmed the SUBSCRIBE: a caller that
      // publishes right after `await subscribe()` must see its own message.
      await state.confirmed;
    } catch (error) {
      state.listeners.delete(entry);
      throw error;
    }
    let active = true;
    return async () => {
      if (!active) return;
      active = false;
      await this.removeListener(channel, state, entry);
    };
  }

  iterate<T>(topic: string): PubSubIterator<T> {
    return this.iterators.iterate<T>(topic);
  }

  listenerCount(topic: string): number {
    return this.channels.get(this.channelOf(topic))?.listeners.size ?? 0;
  }

  /** Ends iterators, forgets listeners and quits the subscriber connection (not the publisher). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.iterators.closeAll();
    // No per-channel UNSUBSCRIBE: quitting the connection drops them all.
    this.channels.clear();
    await closeRedisClient(this.subscriber);
  }

  private openChannel(channel: string, topic: string): ChannelState {
    const listeners = new Set<ListenerEntry>();
    const confirmed = this.subscriber.subscribe(channel).then(
      () => undefined,
      (error: unknown) => {
        // Forget the failed state so the next subscribe retries instead of
        // joining a promise that is already rejected.
        if (this.channels.get(channel) === state) this.channels.delete(channel);
        throw asError(error);
      },
    );
    const state: ChannelState = { topic, listeners, confirmed };
    this.channels.set(channel, state);
    return state;
  }

  private async removeListener(channel: string, state: ChannelState, entry: ListenerEntry): Promise<void> {
    state.listeners.delete(entry);
    if (state.listeners.size > 0 || this.channels.get(channel) !== state) return;
    this.channels.delete(channel);
    if (this.closed) return;
    try {
      // Commands on one connection run in order, so a SUBSCRIBE issued by a
      // later subscribe() for this channel lands after this UNSUBSCRIBE.
      await this.subscriber.unsubscribe(channel);
    } catch (error) {
      this.options.onError(asError(error), 'pubsub:unsubscribe');
    }
  }

  private onMessage(channel: string, message: string): void {
    const state = this.channels.get(channel);
    if (!state || state.listeners.size === 0) return;
    let envelope: ReturnType<typeof decodeEnvelope>;
    try {
      envelope = decodeEnvelope(message);
    } catch (error) {
      this.options.onError(asError(error), 'pubsub:message');
      return;
    }
    const subscribed = (entry: ListenerEntry) => state.listeners.has(entry);
    deliver({ topic: state.topic, envelope, now: Date.now(), entries: [...state.listeners], subscribed }, this.options);
  }

  private channelOf(topic: string): string {
    return `${this.keyPrefix}ps:${topic}`;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('pub/sub is closed');
  }
}
