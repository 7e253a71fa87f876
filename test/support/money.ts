/**
 * Money in the ledger's micro-units, computed independently of the code under
 * test: expected figures are written in USD and converted here.
 */

/** One USD in micro-units. */
export const MICROS_PER_USD = 1_000_000n;

/**
 * USD in micro-units: a number is rounded to the nearest micro-dollar
 * (`micros(2.77)` → 2_770_000n); a decimal string is read exactly
 * (`micros('40.5')` → 40_500_000n, at most six decimals).
 */
export function micros(usd: number | string): bigint {
  if (typeof usd === 'number') return BigInt(Math.round(usd * 1e6));
  const negative = usd.startsWith('-');
  const [whole, fraction = ''] = usd.replace('-', '').split('.');
  if (fraction.length > 6) throw new Error(`more than six decimals: ${usd}`);
  const value = BigInt(whole) * MICROS_PER_USD + BigInt(fraction.padEnd(6, '0'));
  return negative ? -value : value;
}

/** Micro-units as a USD number (as the API shows amounts). */
export function usd(amount: bigint): number {
  return Number(amount) / 1e6;
}

/** A USD number rounded to the micro-dollar, as the API rounds amounts it derives. */
export function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
