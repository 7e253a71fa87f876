import type { MaybePromise } from '../src/http/push-source';
import type { SseFrame } from '../src/http/sse';

/**
 * The SSE messages of public stream routes, made once per source event: a
 * pub/sub message reaches every subscriber as the same object, and on a route
 * without a credential (`auth: 'none'`) what the operation makes of it depends
 * only on that event and the route's variables. So the first client to get an
 * event executes the operation and encodes the message; every other client
 * with the same variables writes the same frame. Keyed weakly by the event
 * object: an entry goes when the pub/sub and the clients let go of the event.
 */
export type StreamMessage = { id: string; frame: SseFrame } | { error: unknown };

export class SharedStreamMessages {
  private readonly byEvent = new WeakMap<object, Map<string, MaybePromise<StreamMessage>>>();

  /**
   * The message of `event` for `key` (route and variables), made by `make` the first time only: the
   * message itself when it was made synchronously, else the promise of it.
   */
  messageOf(event: unknown, key: string, make: () => MaybePromise<StreamMessage>): MaybePromise<StreamMessage> {
    if (typeof event !== 'object' || event === null) return make();
    let byKey = this.byEvent.get(event);
    if (!byKey) {
      byKey = new Map();
      this.byEvent.set(event, byKey);
    }
    let message = byKey.get(key);
    if (!message) {
      message = make();
      byKey.set(key, message);
    }
    return message;
  }
}
