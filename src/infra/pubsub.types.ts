/**
 * Pub/sub contract shared by the Redis and in-process implementations.
 * Delivery is at-most-once (Redis pub/sub semantics): a message published
 * while nobody is subscribed, or while a subscriber is reconnecting, is lost.
 */

/** Removes a listener; calling it more than once is harmless. */
export type Unsubscribe = () => Promise<void>;

/**
 * Iterator returned by {@link PubSub.iterate}. It subscribes as soon as it is
 * created (not on the first `next()`), so messages published after `ready`
 * resolves are buffered even if the consumer has not started pulling yet.
 */
export interface PubSubIterator<T> extends AsyncIterableIterator<T> {
  /** Resolves once the subscription is confirmed; rejects if subscribing failed. */
  readonly ready: Promise<void>;
  /** How many messages were discarded (oldest first) because the buffer was full. */
  readonly dropped: number;
  /** Unsubscribes and ends the iteration; pending `next()` calls resolve as done. */
  return(): Promise<IteratorResult<T>>;
}

/** Topic-based publish/subscribe. Payloads must be JSON-serialisable. */
export interface PubSub {
  /** Publishes `payload` to every current subscriber of `topic`, in any process sharing the backend. */
  publish<T>(topic: string, payload: T): Promise<void>;
  /**
   * Publishes `payloads` to `topic` in order, all or none: the batch is
   * serialised as one message before anything goes out, and over Redis it is one
   * PUBLISH (one command, delivered whole), so a failure leaves nothing published
   * and running it again publishes each once. Listeners get the payloads one by one.
   */
  publishMany<T>(topic: string, payloads: readonly T[]): Promise<void>;
  /**
   * Resolves once the subscription is active (for Redis: after the server
   * confirmed SUBSCRIBE), with a function that removes this listener. Listener
   * gets payloads in publish order per publisher. A throwing listener is
   * reported through `onError` and does not affect other listeners.
   */
  subscribe<T>(topic: string, listener: (payload: T) => void): Promise<Unsubscribe>;
  /**
   * Async iterator over a topic (for GraphQL subscriptions); `return()`
   * unsubscribes. Buffers while the consumer is slow, up to a bound beyond
   * which the oldest messages are dropped and counted.
   */
  iterate<T>(topic: string): PubSubIterator<T>;
  /** Number of listeners (including iterators) this instance holds for `topic`. */
  listenerCount(topic: string): number;
  /** Ends every iterator, drops every listener and releases connections. Idempotent. */
  close(): Promise<void>;
}
