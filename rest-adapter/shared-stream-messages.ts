/**
 * The SSE messages of public stream routes, made once per source event: a
 * pub/sub message reaches every subscriber as the same object, and on a route
 * without a credential (`auth: 'none'`) what the operation makes of it depends
 * only on that event and the route's variables. So the first client to get an
 * event executes the operation and encodes the message; every other client
 * with the same variables writes the same Buffer. Keyed weakly by the event
 * object: an entry goes when the pub/sub and the clients let go of the event.
 */
export type StreamMessage = { id: string; frame: Buffer } | { error: unknown };

export class SharedStreamMessages {
  private readonly byEvent = new WeakMap<object, Map<string, Promise<StreamMessage>>>();

  /** The message of `event` for `key` (route and variables), made by `make` the first time only. */
  messageOf(event: unknown, key: string, make: () => Promise<StreamMessage>): Promise<StreamMessage> {
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
