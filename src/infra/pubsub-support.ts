import { asError } from './cache-support';
import type { InfraErrorHandler } from './infra.types';
import { deliveryLag, type PubSubEnvelope } from './pubsub-envelope';
import type { PubSubIterator, Unsubscribe } from './pubsub.types';
import { TopicIterator } from './topic-iterator';

/**
 * Pieces both pub/sub implementations share, so listeners, iterators and the lag metric behave
 * identically whichever backend is configured.
 */

/** Options shared by both pub/sub implementations. */
export interface PubSubOptions {
  onError: InfraErrorHandler;
  onDeliveryLag?: (topic: string, lagMs: number) => void;
  onIteratorDrop?: (topic: string) => void;
  iteratorBufferSize: number;
}

/** Wraps a listener so the same function subscribed twice counts (and unsubscribes) twice. */
export interface ListenerEntry {
  readonly listener: (payload: unknown) => void;
}

/** A listener as a pub/sub keeps it (the payload is whatever the publisher sent; typing it is the caller's). */
export function listenerEntry<T>(listener: (payload: T) => void): ListenerEntry {
  return { listener: listener as (payload: unknown) => void };
}

/**
 * The name a topic is measured under: a family of topics (`market-updates#venue_a#<id>`, one per
 * market) counts as its family, so the lag metric's labels stay few.
 */
export function topicFamily(topic: string): string {
  const cut = topic.indexOf('#');
  return cut < 0 ? topic : topic.slice(0, cut);
}

/** Feeds the lag metric; a throwing metric callback must not stop delivery. */
function reportLag(options: PubSubOptions, topic: string, lagMs: number): void {
  try {
    options.onDeliveryLag?.(topicFamily(topic), lagMs);
  } catch (error) {
    options.onError(asError(error), 'pubsub:listener');
  }
}

/** One message of `topic` to hand out, and who may still receive it. */
export interface MessageDelivery {
  topic: string;
  envelope: PubSubEnvelope<unknown>;
  /** The receiver's clock (unix ms) now, for the lag metric. */
  now: number;
  entries: readonly ListenerEntry[];
  /** Whether a listener is still subscribed: an earlier listener may unsubscribe a later one. */
  subscribed: (entry: ListenerEntry) => boolean;
}

/**
 * Hands each of the message's payloads, in order, to its listeners in order (a batch counts as
 * its payloads: the lag metric is fed once for each), skipping those no longer subscribed (a
 * listener may unsubscribe another, or itself, between two payloads); a throwing listener is
 * reported and the others still run.
 */
export function deliver(d: MessageDelivery, options: PubSubOptions): void {
  const lag = deliveryLag(d.envelope.publishedAt, d.now);
  for (const payload of d.envelope.payloads) {
    reportLag(options, d.topic, lag);
    for (const entry of d.entries) {
      if (!d.subscribed(entry)) continue;
      try {
        entry.listener(payload);
      } catch (error) {
        options.onError(asError(error), 'pubsub:listener');
      }
    }
  }
}

/** The async iterators a pub/sub hands out, ended together when it closes. */
export class TopicIterators {
  private readonly open = new Set<PubSubIterator<unknown>>();

  constructor(
    private readonly subscribe: <T>(topic: string, listener: (payload: T) => void) => Promise<Unsubscribe>,
    private readonly options: PubSubOptions,
  ) {}

  iterate<T>(topic: string): PubSubIterator<T> {
    const iterator: PubSubIterator<T> = new TopicIterator<T>((listener) => this.subscribe(topic, listener), {
      maxBuffer: this.options.iteratorBufferSize,
      onDrop: () => this.options.onIteratorDrop?.(topic),
      onFinish: () => this.open.delete(iterator),
    });
    this.open.add(iterator);
    return iterator;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open].map((iterator) => iterator.return()));
    this.open.clear();
  }
}
