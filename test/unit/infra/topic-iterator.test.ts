import { TopicIterator } from '../../../src/infra/topic-iterator';

/** A controllable stand-in for PubSub.subscribe. */
function fakeSubscription<T>() {
  let listener: ((payload: T) => void) | undefined;
  const unsubscribe = jest.fn(async () => {
    listener = undefined;
  });
  return {
    subscribe: jest.fn(async (l: (payload: T) => void) => {
      listener = l;
      return unsubscribe;
    }),
    unsubscribe,
    emit: (payload: T) => listener?.(payload),
    get subscribed() {
      return listener !== undefined;
    },
  };
}

describe('TopicIterator', () => {
  it('subscribes on creation and buffers until pulled', async () => {
    const sub = fakeSubscription<number>();
    const iterator = new TopicIterator(sub.subscribe, { maxBuffer: 10 });
    await iterator.ready;
    expect(sub.subscribe).toHaveBeenCalledTimes(1);
    sub.emit(1);
    sub.emit(2);
    await expect(iterator.next()).resolves.toEqual({ done: false, value: 1 });
    await expect(iterator.next()).resolves.toEqual({ done: false, value: 2 });
  });

  it('drops the oldest beyond the bound and counts drops', async () => {
    const sub = fakeSubscription<number>();
    const onDrop = jest.fn();
    const iterator = new TopicIterator(sub.subscribe, { maxBuffer: 3, onDrop });
    await iterator.ready;
    for (let n = 0; n < 10; n += 1) sub.emit(n);
    expect(iterator.dropped).toBe(7);
    expect(onDrop).toHaveBeenCalledTimes(7);
    const values: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const result = await iterator.next();
      if (!result.done) values.push(result.value);
    }
    expect(values).toEqual([7, 8, 9]);
  });

  it('return() unsubscribes once, ends pending pulls and discards the buffer', async () => {
    const sub = fakeSubscription<number>();
    const onFinish = jest.fn();
    const iterator = new TopicIterator(sub.subscribe, { maxBuffer: 10, onFinish });
    await iterator.ready;
    const pending = iterator.next();
    await iterator.return();
    await iterator.return();
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
    expect(sub.unsubscribe).toHaveBeenCalledTimes(1);
    expect(onFinish).toHaveBeenCalledTimes(1);
    sub.emit(1);
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
  });

  it('return() before the subscription settled still unsubscribes', async () => {
    const sub = fakeSubscription<number>();
    const iterator = new TopicIterator(sub.subscribe, { maxBuffer: 10 });
    await iterator.return();
    expect(sub.unsubscribe).toHaveBeenCalledTimes(1);
    expect(sub.subscribed).toBe(false);
  });

  it('surfaces a failed subscription through ready and next(), once', async () => {
    const failing = jest.fn(async () => {
      throw new Error('no redis');
    });
    const iterator = new TopicIterator<number>(failing, { maxBuffer: 10 });
    await expect(iterator.ready).rejects.toThrow('no redis');
    await expect(iterator.next()).rejects.toThrow('no redis');
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
  });

  it('rejects pulls already waiting when the subscription fails', async () => {
    let fail!: (error: Error) => void;
    const iterator = new TopicIterator<number>(
      () =>
        new Promise((_, reject) => {
          fail = reject;
        }),
      { maxBuffer: 10 },
    );
    const pending = iterator.next();
    fail(new Error('refused'));
    await expect(pending).rejects.toThrow('refused');
  });

  it('throw() unsubscribes and rethrows', async () => {
    const sub = fakeSubscription<number>();
    const iterator = new TopicIterator(sub.subscribe, { maxBuffer: 10 });
    await iterator.ready;
    await expect(iterator.throw(new Error('consumer failed'))).rejects.toThrow('consumer failed');
    expect(sub.unsubscribe).toHaveBeenCalledTimes(1);
  });
});
