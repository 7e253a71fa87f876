import { asError } from './cache-support';
import type { InfraErrorHandler } from './infra.types';
import { decodeEnvelope, deliveryLag, encodeEnvelope } from './pubsub-envelope';
import type { PubSub, PubSubIterator, Unsubscribe } from './pubsub.types';
import { TopicIterator } from './topic-iterator';

/** Options shared by both pub/sub implementations. */
export interface PubSubOptions {
  onError: InfraErrorHandler;
  onDeliveryLag?: (topic: string, lagMs: number) => void;
  onIteratorDrop?: (topic: string) => void;
  iteratorBufferSize: number;
}

/** Options for {@link MemoryPubSub}. */
export interface MemoryPubSubOptions extends PubSubOptions {
  now: () => number;
}

/** Wraps a listener so the same function subscribed twice counts (and unsubscribes) twice. */
interface ListenerEntry {
  readonly listener: (payload: unknown) => void;
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
  private readonly iterators = new Set<PubSubIterator<unknown>>();
  private queue: Delivery[] = [];
  private flushHandle: NodeJS.Immediate | undefined;
  private closed = false;

  constructor(private readonly options: MemoryPubSubOptions) {}

  async publish<T>(topic: string, payload: T): Promise<void> {
    return this.publishMany(topic, [payload]);
  }

  async publishMany<T>(topic: string, payloads: readonly T[]): Promise<void> {
    this.assertOpen();
    // Every payload is encoded first, even without listeners, so a non-serialisable one fails
    // the same way it would against Redis, and a batch goes out whole or not at all.
    const at = this.options.now();
    const raws = payloads.map((p) => encodeEnvelope(p, at));
    const listeners = this.topics.get(topic);
    if (!listeners || listeners.size === 0 || raws.length === 0) return;
    const targets = [...listeners];
    for (const raw of raws) this.queue.push({ topic, raw, targets });
    // One immediate drains the whole queue, which keeps FIFO order across topics.
    this.flushHandle ??= setImmediate(() => this.flush());
  }

  async subscribe<T>(topic: string, listener: (payload: T) => void): Promise<Unsubscribe> {
    this.assertOpen();
    // The payload is whatever the publisher sent; typing it is the caller's contract.
    const entry: ListenerEntry = { listener: listener as (payload: unknown) => void };
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
    const iterator: PubSubIterator<T> = new TopicIterator<T>((listener) => this.subscribe(topic, listener), {
      maxBuffer: this.options.iteratorBufferSize,
      onDrop: () => this.options.onIteratorDrop?.(topic),
      onFinish: () => this.iterators.delete(iterator),
    });
    this.iterators.add(iterator);
    return iterator;
  }

  listenerCount(topic: string): number {
    return this.topics.get(topic)?.size ?? 0;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.iterators].map((iterator) => iterator.return()));
    this.iterators.clear();
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
    const { publishedAt, payload } = decodeEnvelope(raw);
    reportLag(this.options, topic, deliveryLag(publishedAt, this.options.now()));
    for (const entry of live) {
      // An earlier listener in this loop may have unsubscribed this one.
      if (!this.isSubscribed(topic, entry)) continue;
      try {
        entry.listener(payload);
      } catch (error) {
        this.options.onError(asError(error), 'pubsub:listener');
      }
    }
  }

  private isSubscribed(topic: string, entry: ListenerEntry): boolean {
    return this.topics.get(topic)?.has(entry) === true;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('pub/sub is closed');
  }
}

/** Feeds the lag metric; a throwing metric callback must not stop delivery. */
export function reportLag(options: PubSubOptions, topic: string, lagMs: number): void {
  try {
    options.onDeliveryLag?.(topic, lagMs);
  } catch (error) {
    options.onError(asError(error), 'pubsub:listener');
  }
}
