import {
  base62,
  generateApiKey,
  hashApiKey,
  isApiKeyShaped,
  KEY_BODY_LENGTH,
  newKeyId,
  previewOf,
} from '../../../src/modules/api-keys/api-key.codec';
import { LookupCache } from '../../../src/modules/api-keys/lookup-cache';

describe('API key codec', () => {
  it('makes keys of mk_live_ and 33 base62 characters holding 192 random bits', () => {
    const keys = Array.from({ length: 200 }, () => generateApiKey());
    for (const k of keys) {
      expect(k).toMatch(/^mk_live_[0-9A-Za-z]{33}$/);
      expect(isApiKeyShaped(k)).toBe(true);
    }
    expect(new Set(keys).size).toBe(keys.length);
    // 62^33 covers 2^192: the largest 24-byte value still fits, the smallest pads.
    expect(base62(new Uint8Array(24).fill(255), KEY_BODY_LENGTH)).toHaveLength(KEY_BODY_LENGTH);
    expect(generateApiKey(() => new Uint8Array(24))).toBe(`mk_live_${'0'.repeat(33)}`);
    expect(Math.log2(62) * KEY_BODY_LENGTH).toBeGreaterThanOrEqual(192);
  });

  it('encodes base62 big-endian with fixed width', () => {
    expect(base62(Uint8Array.from([255]), 3)).toBe('047');
    expect(base62(Uint8Array.from([1, 0]), 2)).toBe('48');
    expect(() => base62(Uint8Array.from([255, 255, 255]), 2)).toThrow(RangeError);
  });

  it('hashes with SHA-256 and previews the prefix and a few characters', () => {
    const key = `mk_live_AbC1${'x'.repeat(25)}xYz9`;
    // Known digests, computed outside Node: FIPS 180-2's "abc" vector, and `printf %s <key> | sha256sum`.
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashApiKey(key)).toBe('24aeec144841e2f9ee575ed6a7444ac260fdd67d4af06760733fb8b9dea6b30f');
    expect(hashApiKey(key)).not.toBe(hashApiKey(`${key.slice(0, -1)}8`));
    expect(previewOf(key)).toBe('mk_live_AbC1…xYz9');
  });

  it('recognizes only well-formed keys', () => {
    for (const bad of [
      '',
      'mk_live_',
      `mk_test_${'a'.repeat(33)}`,
      `mk_live_${'a'.repeat(32)}`,
      `mk_live_${'a'.repeat(32)}!`,
      `mk_live_${'a'.repeat(34)}`,
    ]) {
      expect(isApiKeyShaped(bad)).toBe(false);
    }
  });

  it('makes key ids of key_ and 12 base62 characters', () => {
    const ids = Array.from({ length: 100 }, () => newKeyId());
    for (const id of ids) expect(id).toMatch(/^key_[0-9A-Za-z]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('LookupCache', () => {
  it('expires entries and drops the oldest when full', () => {
    let now = 0;
    const cache = new LookupCache<string | null>(2, () => now);
    cache.set('a', 'A', 10);
    cache.set('b', null, 10);
    expect(cache.get('b')).toBeNull();
    cache.set('c', 'C', 10);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toBe('C');
    now = 10;
    expect(cache.get('c')).toBeUndefined();
    cache.set('d', 'D', 10);
    cache.delete('d');
    expect(cache.get('d')).toBeUndefined();
  });
});
