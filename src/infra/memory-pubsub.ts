import { decodeEnvelope, encodeBatchEnvelope, encodeEnvelope } from './pubsub-envelope';
import { deliver, listenerEntry, TopicIterators, type ListenerEntry, type PubSubOptions } from './pubsub-support';
import type { PubSub, PubSubIterator, Unsubscribe } from './pubsub.types';

/** Options for {@link MemoryPubSub}. */
export interface MemoryPubSubOptions extends PubSubOptions {
  now: () => number;
}

interface Delivery {
  topic: string;
  raw: string;
  /** Listeners subscribed when the message was published; later subscribers must not see it. */
  targets: ListenerEntry[];
}

/**
 * In-process pub/sub with Redis-like semantics: delivery is asynchronous (a
 * later macrotask, like a network round trip) and in publish order, payloads
 * are JSON copies, and a listener only receives messages published while it
 * was subscribed.
 */
export class MemoryPubSub implements PubSub {
  private readonly topics = new Map<string, Set<ListenerEntry>>();
  private readonly iterators: TopicIterators;
  private queue: Delivery[] = [];
  private flushHandle: NodeJS.Immediate | undefined;
  private closed = false;

  constructor(private readonly options: MemoryPubSubOptions) {
    this.iterators = new TopicIterators((topic, listener) => this.subscribe(topic, listener), options);
  }

  async publish<T>(topic: string, payload: T): Promise<void> {
    this.assertOpen();
    this.enqueue(topic, encodeEnvelope(payload, this.options.now()));
  }

  /** One message for the batch, as over Redis. */
  async publishMany<T>(topic: string, payloads: readonly T[]): Promise<void> {
    this.assertOpen();
    if (payloads.length === 0) return;
    this.enqueue(topic, encodeBatchEnvelope(payloads, this.options.now()));
  }

  /**
   * Queues a message for the topic's present listeners. It is encoded first, even without
   * listeners, so a non-serialisable payload fails the same way it would against Redis, and a
   * batch goes out whole or not at all.
   */
  private enqueue(topic: string, raw: string): void {
    const listeners = this.topics.get(topic);
    if (!listeners || listeners.size === 0) return;
    this.queue.push({ topic, raw, targets: [...listeners] });
    // One immediate drains the whole queue, which keeps FIFO order across topics.
    this.flushHandle ??= setImmediate(() => this.flush());
  }

  async subscribe<T>(topic: string, listener: (payload: T) => void): Promise<Unsubscribe> {
    this.assertOpen();
    const entry = listenerEntry(listener);
    let listeners = this.topics.get(topic);
    if (!listeners) {
      listeners = new Set();
      this.topics.set(topic, listeners);
    }
    listeners.add(entry);
    let active = true;
    return async () => {
      if (!active) return;
      active = false;
      const current = this.topics.get(topic);
      if (!current) return;
      current.delete(entry);
      if (current.size === 0) this.topics.delete(topic);
    };
  }

  iterate<T>(topic: string): PubSubIterator<T> {
    return this.iterators.iterate<T>(topic);
  }

  listenerCount(topic: string): number {
    return this.topics.get(topic)?.size ?? 0;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.iterators.closeAll();
    this.topics.clear();
    this.queue = [];
    if (this.flushHandle) clearImmediate(this.flushHandle);
    this.flushHandle = undefined;
  }

  private flush(): void {
    this.flushHandle = undefined;
    const batch = this.queue;
    this.queue = [];
    for (const delivery of batch) this.deliver(delivery);
  }

  private deliver({ topic, raw, targets }: Delivery): void {
    const live = targets.filter((entry) => this.isSubscribed(topic, entry));
    if (live.length === 0) return;
    const envelope = decodeEnvelope(raw);
    const subscribed = (entry: ListenerEntry) => this.isSubscribed(topic, entry);
    deliver({ topic, envelope, now: this.options.now(), entries: live, subscribed }, this.options);
  }

  private isSubscribed(topic: string, entry: ListenerEntry): boolean {
    return this.topics.get(topic)?.has(entry) === true;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('pub/sub is closed');
  }
}
