import { AppError } from '../../../src/errors/app-error';
import { SseOperations } from '../../../src/graphql/sse-operations';
import { StreamSlots } from '../../../src/http/stream-limits';

function setup(maxPerStream: number, perAddress = 100) {
  const slots = new StreamSlots({ perAddress, total: 1000 });
  const refused = jest.fn();
  const ops = new SseOperations(maxPerStream, (address) => slots.acquire(address), refused);
  return { slots, ops, refused };
}

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('not refused');
}

describe('SseOperations: live operations per graphql-sse stream', () => {
  it('refuses the operation past the per-stream cap with a 429 naming the limit and the setting', () => {
    const { ops, refused } = setup(3);
    for (let i = 0; i < 3; i += 1) ops.claim('t', '192.0.2.1');
    const err = refusal(() => ops.claim('t', '192.0.2.1'));
    expect(err.code).toBe('rate_limited');
    expect(err.message).toMatch(/at most 3, SSE_MAX_OPERATIONS_PER_STREAM/);
    expect(err.details).toEqual({ retryAfter: 5 });
    expect(refused).toHaveBeenCalledTimes(1);
    // Another stream has its own cap.
    expect(() => ops.claim('u', '192.0.2.1')).not.toThrow();
    expect(ops.count('t')).toBe(3);
    expect(ops.count()).toBe(4);
  });

  it('each operation beyond a stream’s first holds a slot of its address, given back as they end', () => {
    const { ops, slots } = setup(20);
    const claims = Array.from({ length: 5 }, () => ops.claim('t', '192.0.2.1'));
    expect(slots.count('192.0.2.1')).toBe(4);
    ops.release(claims[0]);
    ops.release(claims[0]); // twice is once
    expect(slots.count('192.0.2.1')).toBe(3);
    ops.release(claims[3]);
    expect(slots.count('192.0.2.1')).toBe(2);
    expect(ops.count('t')).toBe(3);
    ops.endStream('t');
    expect(slots.count()).toBe(0);
    expect(ops.count()).toBe(0);
    expect(claims.every((c) => c.released)).toBe(true);
  });

  it('an address out of stream slots cannot add operations to a stream', () => {
    const { ops, slots } = setup(20, 3);
    for (let i = 0; i < 4; i += 1) ops.claim('t', '192.0.2.1'); // the first free, three slots
    expect(slots.count('192.0.2.1')).toBe(3);
    const err = refusal(() => ops.claim('t', '192.0.2.1'));
    expect(err.message).toMatch(/from this address \(at most 3\)/);
    expect(ops.count('t')).toBe(4);
    expect(() => ops.claim('t', '192.0.2.2')).not.toThrow();
  });

  it('close gives everything back', () => {
    const { ops, slots } = setup(20);
    for (let i = 0; i < 3; i += 1) ops.claim('a', '192.0.2.1');
    for (let i = 0; i < 3; i += 1) ops.claim('b', '192.0.2.2');
    expect(slots.count()).toBe(4);
    ops.close();
    expect(slots.count()).toBe(0);
    expect(ops.count()).toBe(0);
  });
});
