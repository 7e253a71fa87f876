import { hashString, hexFrom, Prng, uuidFrom } from '../../../src/venues/sim/prng';

describe('prng', () => {
  it('repeats for a seed and spreads over [0, 1)', () => {
    const a = new Prng(42);
    const b = new Prng(42);
    const xs = Array.from({ length: 2000 }, () => a.next());
    expect(Array.from({ length: 2000 }, () => b.next())).toEqual(xs);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
    expect(new Prng(43).next()).not.toBe(new Prng(42).next());
  });

  it('hashes strings and derives ids deterministically', () => {
    expect(hashString('abc', 1)).toBe(hashString('abc', 1));
    expect(hashString('abc', 1)).not.toBe(hashString('abc', 2));
    expect(hexFrom('k', 40)).toMatch(/^[0-9a-f]{40}$/);
    expect(uuidFrom('k')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const r = new Prng(1);
    expect(r.sample([1, 2, 3, 4, 5], 3)).toHaveLength(3);
    expect(new Set(r.shuffle([1, 2, 3, 4, 5]))).toEqual(new Set([1, 2, 3, 4, 5]));
  });
});
