import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares a presented credential with the expected one in constant time. Both
 * sides are hashed first so their lengths never leak through an early return.
 */
export function safeEqual(presented: string | undefined, expected: string | undefined): boolean {
  if (presented === undefined || expected === undefined || expected.length === 0) return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
