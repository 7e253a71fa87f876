import type { Infra } from '../../../src/infra';
import { sleep, waitFor } from '../../support/wait';
import { deferred, KINDS, makeInfra } from './infra-test-helpers';

describe.each(KINDS)('cache (%s)', (kind) => {
  let infra: Infra;

  beforeEach(async () => {
    infra = await makeInfra(kind);
  });

  afterEach(async () => {
    await infra.close();
  });

  it('returns undefined for a missing key', async () => {
    await expect(infra.cache.get('missing')).resolves.toBeUndefined();
  });

  it('round-trips values as JSON copies', async () => {
    const value = { id: 1, tags: ['a', 'b'], nested: { ok: true }, none: null, at: new Date(0) };
    await infra.cache.set('obj', value, 10_000);
    const read = await infra.cache.get<Record<string, unknown>>('obj');
    expect(read).toEqual({ id: 1, tags: ['a', 'b'], nested: { ok: true }, none: null, at: '1970-01-01T00:00:00.000Z' });
    expect(read).not.toBe(value);
    await infra.cache.set('zero', 0, 10_000);
    await expect(infra.cache.get('zero')).resolves.toBe(0);
  });

  it('overwrites a key and its TTL', async () => {
    await infra.cache.set('k', 'first', 100);
    await infra.cache.set('k', 'second', 10_000);
    await sleep(300);
    await expect(infra.cache.get('k')).resolves.toBe('second');
  });

  it('expires entries after their TTL', async () => {
    // A second to read it back in (a busy machine may take a while); the TTL passing is the point.
    await infra.cache.set('short', 'v', 1_000);
    await expect(infra.cache.get('short')).resolves.toBe('v');
    await sleep(1_300);
    await expect(infra.cache.get('short')).resolves.toBeUndefined();
  });

  it('deletes entries, and deleting a missing key is fine', async () => {
    await infra.cache.set('k', 'v', 10_000);
    await infra.cache.del('k');
    await expect(infra.cache.get('k')).resolves.toBeUndefined();
    await expect(infra.cache.del('never-set')).resolves.toBeUndefined();
  });

  it('rejects undefined values and non-positive TTLs', async () => {
    await expect(infra.cache.set('k', undefined, 1_000)).rejects.toThrow(TypeError);
    await expect(infra.cache.set('k', 'v', 0)).rejects.toThrow(RangeError);
    await expect(infra.cache.set('k', 'v', Number.NaN)).rejects.toThrow(RangeError);
  });

  it('wrap loads on a miss, then serves hits', async () => {
    const load = jest.fn(async () => ({ n: 42 }));
    await expect(infra.cache.wrap('w', 10_000, load)).resolves.toEqual({ value: { n: 42 }, hit: false });
    await expect(infra.cache.wrap('w', 10_000, load)).resolves.toEqual({ value: { n: 42 }, hit: true });
    expect(load).toHaveBeenCalledTimes(1);
    await expect(infra.cache.get('w')).resolves.toEqual({ n: 42 });
  });

  it('wrap is single-flight: 10 concurrent misses call load once', async () => {
    const gate = deferred<string>();
    const load = jest.fn(() => gate.promise);
    const calls = Array.from({ length: 10 }, () => infra.cache.wrap('sf', 10_000, load));
    // Every caller is in before the load finishes: the first read the cache and is loading.
    await waitFor(() => load.mock.calls.length > 0, 'the first caller loads');
    gate.resolve('loaded');
    const results = await Promise.all(calls);
    expect(load).toHaveBeenCalledTimes(1);
    expect(results).toEqual(Array.from({ length: 10 }, () => ({ value: 'loaded', hit: false })));
    await expect(infra.cache.wrap('sf', 10_000, load)).resolves.toEqual({ value: 'loaded', hit: true });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('does not cache a rejected load, and shares the rejection with concurrent callers', async () => {
    const gate = deferred<string>();
    const failing = jest.fn(() => gate.promise);
    const calls = Array.from({ length: 5 }, () => infra.cache.wrap('fail', 10_000, failing));
    await waitFor(() => failing.mock.calls.length > 0, 'the first caller loads');
    gate.reject(new Error('upstream down'));
    const settled = await Promise.allSettled(calls);
    expect(failing).toHaveBeenCalledTimes(1);
    expect(settled.every((s) => s.status === 'rejected')).toBe(true);
    await expect(infra.cache.get('fail')).resolves.toBeUndefined();

    const recovering = jest.fn(async () => 'ok');
    await expect(infra.cache.wrap('fail', 10_000, recovering)).resolves.toEqual({ value: 'ok', hit: false });
    expect(recovering).toHaveBeenCalledTimes(1);
  });

  it('returns but does not store an undefined load result', async () => {
    const load = jest.fn(async () => undefined);
    await expect(infra.cache.wrap('u', 10_000, load)).resolves.toEqual({ value: undefined, hit: false });
    await expect(infra.cache.wrap('u', 10_000, load)).resolves.toEqual({ value: undefined, hit: false });
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('single-flights per key, not globally', async () => {
    const load = jest.fn(async () => 'v');
    await Promise.all([infra.cache.wrap('a', 10_000, load), infra.cache.wrap('b', 10_000, load)]);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
