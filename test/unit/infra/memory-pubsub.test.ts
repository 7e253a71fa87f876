import { MemoryPubSub } from '../../../src/infra';

function flushDeliveries(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('MemoryPubSub', () => {
  let now: number;
  let pubsub: MemoryPubSub;
  const onError = jest.fn();
  const onDeliveryLag = jest.fn();

  beforeEach(() => {
    now = 0;
    onError.mockReset();
    onDeliveryLag.mockReset();
    pubsub = new MemoryPubSub({ now: () => now, onError, onDeliveryLag, iteratorBufferSize: 10 });
  });

  afterEach(() => pubsub.close());

  it('delivers asynchronously, never inside publish()', async () => {
    const received: unknown[] = [];
    await pubsub.subscribe('t', (p) => received.push(p));
    const publishing = pubsub.publish('t', 1);
    expect(received).toEqual([]);
    await publishing;
    expect(received).toEqual([]);
    await flushDeliveries();
    expect(received).toEqual([1]);
  });

  it('delivers only to listeners subscribed at publish time and still subscribed at delivery', async () => {
    const early: unknown[] = [];
    const late: unknown[] = [];
    const leaving: unknown[] = [];
    await pubsub.subscribe('t', (p) => early.push(p));
    const leave = await pubsub.subscribe('t', (p) => leaving.push(p));
    await pubsub.publish('t', 'm');
    await pubsub.subscribe('t', (p) => late.push(p));
    await leave();
    await flushDeliveries();
    expect(early).toEqual(['m']);
    expect(late).toEqual([]);
    expect(leaving).toEqual([]);
  });

  it('counts the same function subscribed twice as two listeners', async () => {
    const received: unknown[] = [];
    const listener = (p: unknown) => received.push(p);
    const first = await pubsub.subscribe('t', listener);
    await pubsub.subscribe('t', listener);
    await first();
    expect(pubsub.listenerCount('t')).toBe(1);
    await pubsub.publish('t', 'x');
    await flushDeliveries();
    expect(received).toEqual(['x']);
  });

  it('measures lag on the injected clock', async () => {
    await pubsub.subscribe('t', () => {
      now += 1; // each listener call advances time, lag is measured before them
    });
    now = 100;
    await pubsub.publish('t', 1);
    now = 130;
    await flushDeliveries();
    expect(onDeliveryLag).toHaveBeenCalledWith('t', 30);
  });

  it('keeps delivering when the lag callback throws', async () => {
    onDeliveryLag.mockImplementation(() => {
      throw new Error('metrics down');
    });
    const received: unknown[] = [];
    await pubsub.subscribe('t', (p) => received.push(p));
    await pubsub.publish('t', 1);
    await flushDeliveries();
    expect(received).toEqual([1]);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'metrics down' }), 'pubsub:listener');
  });

  it('rejects payloads that cannot be serialised, like Redis would', async () => {
    const circular: { self?: unknown } = {};
    circular.self = circular;
    await expect(pubsub.publish('t', circular)).rejects.toThrow(TypeError);
  });
});
