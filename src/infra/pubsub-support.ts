import { asError } from './cache-support';
import type { InfraErrorHandler } from './infra.types';
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

/** Feeds the lag metric; a throwing metric callback must not stop delivery. */
export function reportLag(options: PubSubOptions, topic: string, lagMs: number): void {
  try {
    options.onDeliveryLag?.(topic, lagMs);
  } catch (error) {
    options.onError(asError(error), 'pubsub:listener');
  }
}

/**
 * Hands one message to `entries` in order. An earlier listener may unsubscribe a later one
 * (`subscribed` says whether it still is); a throwing listener is reported and the others still run.
 */
export function deliverTo(
  entries: readonly ListenerEntry[],
  subscribed: (entry: ListenerEntry) => boolean,
  payload: unknown,
  options: PubSubOptions,
): void {
  for (const entry of entries) {
    if (!subscribed(entry)) continue;
    try {
      entry.listener(payload);
    } catch (error) {
      options.onError(asError(error), 'pubsub:listener');
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
