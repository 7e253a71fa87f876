import type { PushSource } from '../../../src/http/push-source';
import { SseFrame } from '../../../src/http/sse';
import { SharedStreamMessages, type StreamMessage } from '../../../rest-adapter/shared-stream-messages';
import { deliverPushed } from '../../../rest-adapter/stream-delivery';

/** A push source the test drives: `emit` hands an event to the listener at once. */
function source() {
  let listener: ((e: unknown) => void) | null = null;
  const it = {
    listen: (fn: (e: unknown) => void) => (listener = fn),
    next: async () => ({ done: true as const, value: undefined }),
    [Symbol.asyncIterator]() {
      return it;
    },
  } as unknown as PushSource<unknown>;
  return { it, emit: (e: unknown) => listener!(e) };
}

const message = (id: string): StreamMessage => ({ id, frame: SseFrame.of('item', id, { id }) });

describe('deliverPushed: a push source delivered to one client', () => {
  it("writes a message made at once in its event's turn; one still being made holds those after it", async () => {
    const src = source();
    const written: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const make = (e: unknown): StreamMessage | Promise<StreamMessage> =>
      e === 'b' ? slow.then(() => message('b')) : message(String(e));
    let close!: () => void;
    const closed = new Promise<void>((r) => (close = r));
    const done = deliverPushed(src.it, make, (m) => (written.push('id' in m ? m.id : 'error'), true), closed);
    src.emit('a');
    expect(written).toEqual(['a']); // no promise between the event and the write
    src.emit('b');
    src.emit('c');
    expect(written).toEqual(['a']); // c waits behind b
    release();
    await slow;
    await new Promise((r) => setImmediate(r));
    expect(written).toEqual(['a', 'b', 'c']);
    src.emit('d');
    expect(written).toEqual(['a', 'b', 'c', 'd']); // in step again
    close();
    await done;
    src.emit('e');
    expect(written).toHaveLength(4);
  });

  it('ends when the stream says so (a dependency down) and rejects when a message cannot be made', async () => {
    const src = source();
    const stop = deliverPushed(
      src.it,
      (e) => message(String(e)),
      () => false,
      new Promise(() => undefined),
    );
    src.emit('x');
    await expect(stop).resolves.toBeUndefined();

    const failing = source();
    const failed = deliverPushed(
      failing.it,
      () => {
        throw new Error('no message');
      },
      () => true,
      new Promise(() => undefined),
    );
    expect(() => failing.emit('y')).not.toThrow(); // never into the source, which has other clients to serve
    await expect(failed).rejects.toThrow('no message');
  });

  it("a public route's message is made once per event for all clients; the message itself when made at once", () => {
    const shared = new SharedStreamMessages();
    const event = {};
    let made = 0;
    const make = () => ((made += 1), message('m'));
    const first = shared.messageOf(event, 'k', make);
    expect(first).not.toBeInstanceOf(Promise);
    expect(shared.messageOf(event, 'k', make)).toBe(first);
    expect(made).toBe(1);
  });
});
