/**
 * Small, fast, seedable randomness. Everything in the simulated world is
 * derived from these so the same seed always yields the same world, and any
 * one value (a market's price at a minute, a trade in an hour) can be computed
 * on its own without replaying a sequence.
 */

// Module-local aliases: global lookups are very slow inside vm contexts (jest),
// and these functions run millions of times per series or listing.
const { floor, imul, min } = Math;

/** Integer avalanche mix (lowbias32); a good bijective 32-bit finaliser. */
export function mix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of a few 32-bit integers; order matters. */
export function hashInts(a: number, b: number, c = 0, d = 0): number {
  let h = mix32(a ^ 0x9e3779b9);
  h = mix32(h ^ imul(b | 0, 0x85ebca6b));
  h = mix32(h ^ imul(c | 0, 0xc2b2ae35));
  return mix32(h ^ imul(d | 0, 0x27d4eb2f));
}

/** 32-bit hash of a string (FNV-1a then mixed), optionally salted with a seed. */
export function hashString(s: string, seed = 0): number {
  let h = (0x811c9dc5 ^ mix32(seed)) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = imul(h, 0x01000193);
  }
  return mix32(h);
}

/** A 32-bit hash as a number in [0, 1). */
export function toUnit(h: number): number {
  return (h >>> 0) / 4294967296;
}

/** Lowercase hex of `chars` length derived from a seed string (for addresses, ids). */
export function hexFrom(key: string, chars: number): string {
  let out = '';
  for (let i = 0; out.length < chars; i++)
    out += hashString(key, i + 1)
      .toString(16)
      .padStart(8, '0');
  return out.slice(0, chars);
}

/** An RFC 4122-shaped (version 4) UUID derived from a key; deterministic, not random. */
export function uuidFrom(key: string): string {
  const h = hexFrom(key, 32).split('');
  h[12] = '4';
  h[16] = '89ab'[parseInt(h[16] ?? '0', 16) & 3] ?? '8';
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

/** Sequential generator (mulberry32) for building things in a fixed order, such as the catalog. */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = mix32(seed) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from empty list');
    return items[floor(this.next() * items.length)];
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = floor(this.next() * (i + 1));
      const tmp = out[i];
      out[i] = out[j];
      out[j] = tmp;
    }
    return out;
  }

  /** `n` distinct items in random order. */
  sample<T>(items: readonly T[], n: number): T[] {
    return this.shuffle(items).slice(0, min(n, items.length));
  }
}
