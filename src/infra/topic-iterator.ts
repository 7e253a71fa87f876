import type { PubSubIterator, Unsubscribe } from './pubsub.types';

/** Subscribes a listener the way `PubSub.subscribe` does. */
export type SubscribeFn<T> = (listener: (payload: T) => void) => Promise<Unsubscribe>;

/** Tuning and hooks for a {@link TopicIterator}. */
export interface TopicIteratorOptions {
  /** Buffered messages kept for a slow consumer; beyond it the oldest is dropped. */
  maxBuffer: number;
  /** Called once per dropped message. */
  onDrop?: () => void;
  /** Called once the iterator has finished (returned, thrown or failed), so the owner can forget it. */
  onFinish?: () => void;
}

interface PendingPull<T> {
  resolve: (result: IteratorResult<T>) => void;
  reject: (error: Error) => void;
}

/**
 * Pull-based view over a push subscription, shared by both pub/sub backends.
 * It subscribes on construction so nothing published after `ready` is missed
 * while the consumer (e.g. graphql-js) is still setting up.
 */
export class TopicIterator<T> implements PubSubIterator<T> {
  readonly ready: Promise<void>;
  private readonly buffer: T[] = [];
  private readonly pulls: PendingPull<T>[] = [];
  private readonly subscription: Promise<Unsubscribe>;
  private droppedCount = 0;
  private finished = false;
  private failure: Error | undefined;

  constructor(
    subscribe: SubscribeFn<T>,
    private readonly options: TopicIteratorOptions,
  ) {
    this.subscription = subscribe((payload) => this.push(payload));
    this.ready = this.subscription.then(() => undefined);
    // Marks `ready` handled: nobody is obliged to await it, and a failed
    // subscribe is surfaced through next() instead of an unhandled rejection.
    this.ready.catch((error: unknown) => this.fail(error));
  }

  get dropped(): number {
    return this.droppedCount;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.buffer.length > 0) {
      return Promise.resolve({ done: false, value: this.buffer.shift() as T });
    }
    if (this.failure) {
      const error = this.failure;
      // Report a failed subscription once, then behave like a finished iterator.
      this.failure = undefined;
      return Promise.reject(error);
    }
    if (this.finished) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => this.pulls.push({ resolve, reject }));
  }

  async return(): Promise<IteratorResult<T>> {
    await this.finish();
    return { done: true, value: undefined };
  }

  async throw(error?: unknown): Promise<IteratorResult<T>> {
    await this.finish();
    throw error instanceof Error ? error : new Error(String(error));
  }

  private push(payload: T): void {
    if (this.finished) return;
    const pull = this.pulls.shift();
    if (pull) {
      pull.resolve({ done: false, value: payload });
      return;
    }
    this.buffer.push(payload);
    if (this.buffer.length > this.options.maxBuffer) {
      this.buffer.shift();
      this.droppedCount += 1;
      this.options.onDrop?.();
    }
  }

  private fail(error: unknown): void {
    if (this.finished) return;
    this.finished = true;
    const failure = error instanceof Error ? error : new Error(String(error));
    const waiting = this.pulls.splice(0);
    if (waiting.length > 0) {
      for (const pull of waiting) pull.reject(failure);
    } else {
      this.failure = failure;
    }
    this.options.onFinish?.();
  }

  private async finish(): Promise<void> {
    const wasFinished = this.finished;
    this.finished = true;
    this.buffer.length = 0;
    for (const pull of this.pulls.splice(0)) pull.resolve({ done: true, value: undefined });
    if (wasFinished) return;
    this.options.onFinish?.();
    let unsubscribe: Unsubscribe;
    try {
      unsubscribe = await this.subscription;
    } catch {
      return; // never subscribed, nothing to undo
    }
    await unsubscribe();
  }
}
