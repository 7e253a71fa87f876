export type MaybePromise<T> = T | Promise<T>;

export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as Promise<T> | null)?.then === 'function';
}

/**
 * A subscription's source stream that can also hand its events to a callback as they come: a
 * consumer that can act on an event at once (a REST stream route writing a message made once for
 * all its clients) skips a promise per event and per client. `listen` switches the source over for
 * good; events that waited are handed on first. `return()` still ends it.
 */
export interface PushSource<T> extends AsyncIterableIterator<T> {
  listen(onEvent: (event: T) => void): void;
}

export function isPushSource<T>(source: AsyncIterator<T>): source is PushSource<T> {
  return typeof (source as Partial<PushSource<T>>).listen === 'function';
}
