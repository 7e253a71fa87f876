/**
 * An append-only log of one execution's events that any number of readers
 * iterate from the start. The execution writes to it whether or not anyone
 * reads: a reader that stops (a client that disconnects) only detaches itself,
 * so the work behind the log never depends on the stream being open.
 */
export class EventLog<T> {
  private readonly items: T[] = [];
  private closed = false;
  private readonly waiters = new Set<() => void>();

  push(item: T): void {
    if (this.closed) throw new Error('event log is closed');
    this.items.push(item);
    this.wake();
  }

  /** No more items will come; readers finish after the last one. */
  close(): void {
    this.closed = true;
    this.wake();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** What was written so far. */
  snapshot(): readonly T[] {
    return [...this.items];
  }

  /** A log already complete (a replay). */
  static of<T>(items: readonly T[]): EventLog<T> {
    const log = new EventLog<T>();
    for (const item of items) log.push(item);
    log.close();
    return log;
  }

  /** A reader from the first item; `return()` detaches it without touching the log. */
  reader(): AsyncIterableIterator<T> {
    let next = 0;
    let done = false;
    let detach: (() => void) | undefined;
    const it: AsyncIterableIterator<T> = {
      next: async (): Promise<IteratorResult<T>> => {
        for (;;) {
          if (done) return { done: true, value: undefined };
          if (next < this.items.length) return { done: false, value: this.items[next++] };
          if (this.closed) {
            done = true;
            return { done: true, value: undefined };
          }
          await new Promise<void>((resolve) => {
            const wake = () => {
              this.waiters.delete(wake);
              resolve();
            };
            this.waiters.add(wake);
            detach = wake;
          });
        }
      },
      return: async (): Promise<IteratorResult<T>> => {
        done = true;
        detach?.();
        return { done: true, value: undefined };
      },
      throw: async (err?: unknown): Promise<IteratorResult<T>> => {
        done = true;
        detach?.();
        throw err;
      },
      [Symbol.asyncIterator]() {
        return it;
      },
    };
    return it;
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}
