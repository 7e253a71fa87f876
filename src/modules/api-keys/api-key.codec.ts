import { createHash, randomBytes } from 'node:crypto';
import { API_KEY_PREFIX } from './api-keys.limits';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random bytes behind a key: 192 bits, above the 128 the interface asks for. */
const KEY_BYTES = 24;
/** Base62 digits that hold {@link KEY_BYTES} bytes (62^33 > 2^192); shorter values are zero-padded. */
export const KEY_BODY_LENGTH = 33;

const KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${KEY_BODY_LENGTH}}$`);

/** Fixed-width base62 of `bytes` (big-endian). */
export function base62(bytes: Uint8Array, width: number): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  if (out.length > width) throw new RangeError(`${bytes.length} bytes do not fit ${width} base62 digits`);
  return out.padStart(width, '0');
}

/** A new key: `mk_live_` + 33 base62 characters of cryptographic randomness. */
export function generateApiKey(random: (n: number) => Uint8Array = randomBytes): string {
  return API_KEY_PREFIX + base62(random(KEY_BYTES), KEY_BODY_LENGTH);
}

/** A new public key id (`key_` + 12 base62 characters). */
export function newKeyId(random: (n: number) => Uint8Array = randomBytes): string {
  return `key_${base62(random(9), 13).slice(1)}`;
}

/** Whether a presented value can be a key at all (checked before any lookup). */
export function isApiKeyShaped(value: string): boolean {
  return KEY_SHAPE.test(value);
}

/** What is stored and looked up: the hex SHA-256 of the key (keys are random, so no salt is needed). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The prefix and the first and last four characters: `mk_live_AbC1…xYz9`. */
export function previewOf(key: string): string {
  const body = key.slice(API_KEY_PREFIX.length);
  return `${API_KEY_PREFIX}${body.slice(0, 4)}…${body.slice(-4)}`;
}
