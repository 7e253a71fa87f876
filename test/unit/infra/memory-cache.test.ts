import { MemoryCache } from '../../../src/infra';

describe('MemoryCache (fake clock)', () => {
  let now: number;
  let cache: MemoryCache;
  const onError = jest.fn();

  beforeEach(() => {
    now = 0;
    onError.mockReset();
    cache = new MemoryCache({ maxEntries: 3, now: () => now, onError });
  });

  afterEach(() => cache.close());

  it('expires an entry exactly at its TTL', async () => {
    await cache.set('k', 'v', 100);
    now = 99;
    await expect(cache.get('k')).resolves.toBe('v');
    now = 100;
    await expect(cache.get('k')).resolves.toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts the least recently used entry beyond the cap', async () => {
    await cache.set('a', 1, 1_000);
    await cache.set('b', 2, 1_000);
    await cache.set('c', 3, 1_000);
    await cache.get('a'); // a is now most recent; b is least
    await cache.set('d', 4, 1_000);
    expect(cache.size).toBe(3);
    await expect(cache.get('b')).resolves.toBeUndefined();
    await expect(cache.get('a')).resolves.toBe(1);
    await expect(cache.get('c')).resolves.toBe(3);
    await expect(cache.get('d')).resolves.toBe(4);
  });

  it('sweeps expired entries', async () => {
    await cache.set('short', 1, 10);
    await cache.set('long', 2, 1_000);
    now = 50;
    cache.sweep();
    expect(cache.size).toBe(1);
  });

  it('hands out copies, so callers cannot mutate the cached value', async () => {
    const value = { list: [1] };
    await cache.set('k', value, 1_000);
    value.list.push(2);
    const read = await cache.get<{ list: number[] }>('k');
    read?.list.push(3);
    await expect(cache.get('k')).resolves.toEqual({ list: [1] });
  });

  it('wrap re-loads after expiry', async () => {
    const load = jest.fn(async () => now);
    await expect(cache.wrap('w', 100, load)).resolves.toEqual({ value: 0, hit: false });
    now = 50;
    await expect(cache.wrap('w', 100, load)).resolves.toEqual({ value: 0, hit: true });
    now = 100;
    await expect(cache.wrap('w', 100, load)).resolves.toEqual({ value: 100, hit: false });
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('wrap returns the loaded value even when storing it fails', async () => {
    const circular: { self?: unknown } = {};
    circular.self = circular;
    await expect(cache.wrap('c', 100, async () => circular)).resolves.toMatchObject({ hit: false });
    expect(onError).toHaveBeenCalledWith(expect.any(TypeError), 'cache');
  });

  it('rejects a non-positive cap', () => {
    expect(() => new MemoryCache({ maxEntries: 0, now: () => 0, onError })).toThrow(RangeError);
  });
});
