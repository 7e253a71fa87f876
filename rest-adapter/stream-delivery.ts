import { isPromise, type MaybePromise, type PushSource } from '../src/http/push-source';
import type { StreamMessage } from './shared-stream-messages';

/**
 * Delivers a push source's events to one client as they come. A message made synchronously (a
 * public route's message is made once per event and shared: the first client makes it, the rest
 * find it made) is written in the same turn as its event, so one event reaches every client of a
 * market in one loop over them, with no promise and no microtask per client; a message still being
 * made holds the ones after it, so the order holds. Resolves once the client has gone or `deliver`
 * says the stream ends; rejects when a message cannot be made (the caller sends the error event).
 */
export function deliverPushed(
  source: PushSource<unknown>,
  messageOf: (event: unknown) => MaybePromise<StreamMessage>,
  deliver: (message: StreamMessage) => boolean,
  closed: Promise<void>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let ended = false;
    /** The last message still being made, while one is: later ones wait behind it. */
    let behind: Promise<void> | null = null;
    const end = (err?: unknown) => {
      if (ended) return;
      ended = true;
      if (err === undefined) resolve();
      else reject(err instanceof Error ? err : new Error('stream message failed', { cause: err }));
    };
    void closed.then(() => end());
    const write = (message: StreamMessage) => {
      if (!ended && !deliver(message)) end();
    };
    source.listen((event) => {
      if (ended) return;
      // Never throws into the source: it hands the same event to every other client next.
      try {
        const message = messageOf(event);
        if (behind === null && !isPromise(message)) {
          write(message);
          return;
        }
        const next = (behind ?? Promise.resolve()).then(() => message).then(write);
        behind = next;
        next.then(
          () => {
            if (behind === next) behind = null;
          },
          (err: unknown) => end(err ?? new Error('stream message failed')),
        );
      } catch (err) {
        end(err ?? new Error('stream message failed'));
      }
    });
  });
}
