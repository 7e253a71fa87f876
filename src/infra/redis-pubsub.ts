import type { Redis } from 'ioredis';
import { asError } from './cache-support';
import { decodeEnvelope, encodeBatchEnvelope, encodeEnvelope } from './pubsub-envelope';
import { deliver, listenerEntry, TopicIterators, type ListenerEntry, type PubSubOptions } from './pubsub-support';
import type { PubSub, PubSubIterator, Unsubscribe } from './pubsub.types';
import { closeRedisClient } from './redis-connection';
import { RedisUnavailableError, type RedisGuard } from './redis-guard';

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
 *
 * With a {@link RedisGuard} (the process's), Redis being unavailable costs no
 * wait: a publish is handed to this process's own listeners (a later
 * macrotask, as if it had come back from Redis) and is lost for the other
 * processes, as any message published while a subscriber is disconnected is
 * (at-most-once delivery); a subscribe resolves at once, its SUBSCRIBE waiting
 * for the connection (ioredis re-subscribes every channel on reconnect).
 */
export class RedisPubSub implements PubSub {
  private readonly channels = new Map<string, ChannelState>();
  private readonly iterators: TopicIterators;
  private closed = false;

  /**
   * @param publisher connection used for PUBLISH; not closed by this class.
   * @param subscriber dedicated connection, created with `createRedisClient(url, 'subscriber')`; closed by {@link
   * close}.
   * @param guard the process's fail-fast access to Redis; without it a publish during an outage fails.
   */
  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly keyPrefix: string,
    private readonly options: PubSubOptions,
    private readonly guard?: RedisGuard,
  ) {
    this.subscriber.on('message', (channel: string, message: string) => this.onMessage(channel, message));
    this.iterators = new TopicIterators((topic, listener) => this.subscribe(topic, listener), options);
  }

  async publish<T>(topic: string, payload: T): Promise<void> {
    this.assertOpen();
    // Wall clock: the lag metric compares it with the receiver's wall clock.
    await this.send(this.channelOf(topic), encodeEnvelope(payload, Date.now()));
  }

  /** The batch as one message ({@link encodeBatchEnvelope}): one PUBLISH, all or none, in order. */
  async publishMany<T>(topic: string, payloads: readonly T[]): Promise<void> {
    this.assertOpen();
    if (payloads.length === 0) return;
    await this.send(this.channelOf(topic), encodeBatchEnvelope(payloads, Date.now()));
  }

  /** Publishes through the guard; while Redis is unavailable, to this process's own listeners only. */
  private async send(channel: string, raw: string): Promise<void> {
    const publish = () => this.publisher.publish(channel, raw);
    if (!this.guard) {
      await publish();
      return;
    }
    try {
      await this.guard.run(publish);
    } catch (error) {
      if (!(error instanceof RedisUnavailableError)) throw error;
      setImmediate(() => this.onMessage(channel, raw));
    }
  }

  async subscribe<T>(topic: string, listener: (payload: T) => void): Promise<Unsubscribe> {
    this.assertOpen();
    const channel = this.channelOf(topic);
    const state = this.channels.get(channel) ?? this.openChannel(channel, topic);
    const entry = listenerEntry(listener);
    state.listeners.add(entry);
    // Redis unavailable: listen locally now; the SUBSCRIBE is sent when the connection is back.
    if (!this.redisUp()) return this.unsubscriber(channel, state, entry);
    try {
      // Resolve only once Redis confirmed the SUBSCRIBE: a caller that
      // publishes right after `await subscribe()` must see its own message.
      await state.confirmed;
    } catch (error) {
      state.listeners.delete(entry);
      throw error;
    }
    return this.unsubscriber(channel, state, entry);
  }

  private unsubscriber(channel: string, state: ChannelState, entry: ListenerEntry): Unsubscribe {
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
    // Not every subscriber waits for it (see subscribe): a failure must not go unhandled.
    confirmed.catch(() => undefined);
    const state: ChannelState = { topic, listeners, confirmed };
    this.channels.set(channel, state);
    return state;
  }

  private async removeListener(channel: string, state: ChannelState, entry: ListenerEntry): Promise<void> {
    state.listeners.delete(entry);
    if (state.listeners.size > 0 || this.channels.get(channel) !== state) return;
    this.channels.delete(channel);
    if (this.closed) return;
    // Commands on one connection run in order, so a SUBSCRIBE issued by a
    // later subscribe() for this channel lands after this UNSUBSCRIBE.
    const sent = this.subscriber.unsubscribe(channel).then(
      () => undefined,
      (error: unknown) => this.options.onError(asError(error), 'pubsub:unsubscribe'),
    );
    // Redis unavailable: the UNSUBSCRIBE waits for the connection; the caller does not.
    if (this.redisUp()) await sent;
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

  /** Without a guard, always (the caller waits for Redis); with one, whether both connections can be used now. */
  private redisUp(): boolean {
    return !this.guard || (this.guard.available && this.subscriber.status === 'ready');
  }

  private channelOf(topic: string): string {
    return `${this.keyPrefix}ps:${topic}`;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('pub/sub is closed');
  }
}
