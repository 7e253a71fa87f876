import { ByteLru } from '../../../src/infra/byte-lru';

describe('ByteLru: a least-recently-used map bounded by bytes', () => {
  it('evicts the least recently used entries once the bytes pass the bound, telling the owner', () => {
    const evicted: string[] = [];
    const lru = new ByteLru<string, number>(100, { onEvict: (key) => evicted.push(key) });
    lru.set('a', 1, 40);
    lru.set('b', 2, 40);
    expect(lru.bytes).toBe(80);
    expect(lru.get('a')).toBe(1); // `a` is now the most recently used
    lru.set('c', 3, 40);
    expect(evicted).toEqual(['b']);
    expect([...lru.keys()]).toEqual(['a', 'c']);
    expect(lru.bytes).toBe(80);
    lru.set('d', 4, 90);
    expect(evicted).toEqual(['b', 'a', 'c']);
    expect(lru.bytes).toBe(90);
    expect(lru.size).toBe(1);
  });

  it('peek leaves the order alone; set again re-weighs and refreshes the entry', () => {
    const lru = new ByteLru<string, string>(100);
    lru.set('a', 'x', 10);
    lru.set('b', 'y', 10);
    expect(lru.peek('a')).toBe('x');
    lru.set('c', 'z', 85); // 105 > 100: the oldest, `a`, goes (peek did not refresh it)
    expect(lru.has('a')).toBe(false);
    lru.set('b', 'y2', 15); // re-weighed from 10 to 15, now the most recent: 85 + 15
    expect(lru.bytes).toBe(100);
    expect([...lru.keys()]).toEqual(['c', 'b']);
  });

  it('keeps nothing heavier than the whole bound, and drops what was under that key', () => {
    const lru = new ByteLru<string, string>(100);
    lru.set('a', 'small', 10);
    lru.set('big', 'x', 50);
    expect(lru.set('big', 'huge', 101)).toBe(false);
    expect(lru.has('big')).toBe(false);
    expect(lru.get('a')).toBe('small');
    expect(lru.bytes).toBe(10);
  });

  it('bounds entries too when asked, and delete/clear give their bytes back without eviction calls', () => {
    const onEvict = jest.fn();
    const lru = new ByteLru<number, number>(1_000_000, { maxEntries: 3, onEvict });
    for (let i = 0; i < 5; i += 1) lru.set(i, i, 1);
    expect([...lru.keys()]).toEqual([2, 3, 4]);
    expect(onEvict).toHaveBeenCalledTimes(2);
    expect(lru.delete(3)).toBe(true);
    expect(lru.delete(3)).toBe(false);
    expect(lru.bytes).toBe(2);
    lru.clear();
    expect(lru.bytes).toBe(0);
    expect(lru.size).toBe(0);
    expect(onEvict).toHaveBeenCalledTimes(2);
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => new ByteLru(0)).toThrow(RangeError);
    expect(() => new ByteLru(1.5)).toThrow(RangeError);
  });
});
