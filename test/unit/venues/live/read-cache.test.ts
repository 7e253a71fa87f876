import { VenueReadCache } from '../../../../src/venues/live/read-cache';

/** A load whose answer the test releases: counts its calls. */
function controlledLoad<T>() {
  const calls: { resolve: (v: T) => void; reject: (e: Error) => void }[] = [];
  const load = () =>
    new Promise<T>((resolve, reject) => {
      calls.push({ resolve, reject });
    });
  return { calls, load };
}

describe('VenueReadCache', () => {
  it('gives concurrent asks for one key one call, and keeps the answer for the window only', async () => {
    const clock = { ms: 1_000 };
    const cache = new VenueReadCache(1_000, 100, () => clock.ms);
    const { calls, load } = controlledLoad<string>();
    const asks = Array.from({ length: 200 }, () => cache.get('book:m1', 'read', load));
    expect(calls).toHaveLength(1);
    calls[0].resolve('book v1');
    expect(await Promise.all(asks)).toEqual(Array(200).fill('book v1'));

    clock.ms += 999;
    expect(await cache.get('book:m1', 'read', load)).toBe('book v1');
    expect(calls).toHaveLength(1);

    clock.ms += 1;
    const fresh = cache.get('book:m1', 'read', load);
    expect(calls).toHaveLength(2);
    calls[1].resolve('book v2');
    expect(await fresh).toBe('book v2');
  });

  it('keys by what was asked: other parameters are other calls', async () => {
    const cache = new VenueReadCache(1_000, 100, () => 0);
    const { calls, load } = controlledLoad<string>();
    void cache.get('book:m1:5', 'read', load);
    void cache.get('book:m1:10', 'read', load);
    void cache.get('book:m2:5', 'read', load);
    expect(calls).toHaveLength(3);
  });

  it('keeps no failure: the next ask calls again', async () => {
    const cache = new VenueReadCache(1_000, 100, () => 0);
    const { calls, load } = controlledLoad<string>();
    const failed = cache.get('k', 'read', load);
    calls[0].reject(new Error('venue down'));
    await expect(failed).rejects.toThrow('venue down');
    const again = cache.get('k', 'read', load);
    expect(calls).toHaveLength(2);
    calls[1].resolve('ok');
    expect(await again).toBe('ok');
  });

  it('never makes an order-budget ask wait for a read-budget call; a kept answer serves both', async () => {
    const cache = new VenueReadCache(1_000, 100, () => 0);
    const reads = controlledLoad<string>();
    const orders = controlledLoad<string>();
    const queuedRead = cache.get('book:m1', 'read', reads.load);
    const orderRead = cache.get('book:m1', 'order', orders.load);
    expect(reads.calls).toHaveLength(1);
    expect(orders.calls).toHaveLength(1);
    orders.calls[0].resolve('from the order budget');
    expect(await orderRead).toBe('from the order budget');
    // Kept now: a later read ask is served without a call.
    expect(await cache.get('book:m1', 'read', reads.load)).toBe('from the order budget');
    expect(reads.calls).toHaveLength(1);
    reads.calls[0].resolve('from the read budget');
    expect(await queuedRead).toBe('from the read budget');
  });

  it('with a window of 0 keeps and shares nothing', async () => {
    const cache = new VenueReadCache(0);
    const { calls, load } = controlledLoad<string>();
    void cache.get('k', 'read', load);
    void cache.get('k', 'read', load);
    expect(calls).toHaveLength(2);
    expect(cache.size).toBe(0);
  });

  it('holds at most its entry bound, dropping the oldest first', async () => {
    const cache = new VenueReadCache(60_000, 3, () => 0);
    for (const k of ['a', 'b', 'c', 'd']) await cache.get(k, 'read', () => Promise.resolve(k));
    expect(cache.size).toBe(3);
    let called = 0;
    const load = () => {
      called += 1;
      return Promise.resolve('again');
    };
    expect(await cache.get('d', 'read', load)).toBe('d');
    expect(await cache.get('a', 'read', load)).toBe('again');
    expect(called).toBe(1);
  });
});
