import { AppError } from '../errors/app-error';

/**
 * Money and prices in integer micro-units (1e-6 of the unit, USDC's precision):
 * exact arithmetic with bigint, never binary floats. The API speaks JSON
 * numbers; these convert at the edges. Every module's micro-unit arithmetic
 * comes from here.
 */
export const MICROS_PER_UNIT = 1_000_000n;

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/**
 * A decimal string ("12.5", "-0.000001") in micro-units; digits past the sixth
 * decimal are rounded half away from zero. Null when it is not a plain decimal.
 */
export function decimalToMicros(text: string): bigint | null {
  const m = DECIMAL.exec(text.trim());
  if (!m) return null;
  const frac = (m[3] ?? '').padEnd(7, '0');
  let micros = BigInt(m[2]) * MICROS_PER_UNIT + BigInt(frac.slice(0, 6));
  if (Number(frac[6]) >= 5) micros += 1n;
  return m[1] ? -micros : micros;
}

/** A stored decimal (at most 6 places) read back as text, in micro-units; anything else is a bug. */
export function exactMicros(text: string): bigint {
  const micros = decimalToMicros(text);
  if (micros === null) throw new RangeError(`not a decimal: ${text}`);
  return micros;
}

/** A number from a venue or a setting (price, size, USD) in micro-units, rounded to the nearest. */
export function toMicros(value: number): bigint {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  return BigInt(Math.round(value * 1e6));
}

/** Micro-units as a JSON number (the nearest double to the exact decimal). */
export function microsToNumber(micros: bigint): number {
  return Number(micros) / 1e6;
}

/** Micro-units as an exact decimal string with six decimals ("12.500000"). */
export function microsToDecimal(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const abs = micros < 0n ? -micros : micros;
  return `${sign}${abs / MICROS_PER_UNIT}.${(abs % MICROS_PER_UNIT).toString().padStart(6, '0')}`;
}

/** Micro-USD as a message shows it: `$12.50`. */
export function usdText(micros: bigint): string {
  return `$${microsToNumber(micros).toFixed(2)}`;
}

/**
 * The product of two micro-unit amounts, in micro-units, rounded half up
 * (non-negative operands): price × size is a notional, amount × USD price a value.
 */
export function mulMicros(a: bigint, b: bigint): bigint {
  return (a * b + MICROS_PER_UNIT / 2n) / MICROS_PER_UNIT;
}

/** `part / total` in millionths, rounded half up (non-negative operands); 0 when the total is 0. */
export function ratioMicros(part: bigint, total: bigint): bigint {
  return total === 0n ? 0n : (part * MICROS_PER_UNIT + total / 2n) / total;
}

/** A JSON number rounded to micro precision (6 decimals), so a derived price or share prints cleanly. */
export function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

export interface AmountRule {
  min: number;
  max: number;
  /** Most decimals accepted (2 for fiat, 6 for USDC). */
  decimals: number;
}

/**
 * An input amount (a JSON number) in micro-units, checked against its rule; a 400
 * naming `field` otherwise. The number's shortest decimal form is what the caller
 * typed, so `0.1` is exactly 100000 micro-units.
 */
export function amountToMicros(value: number, rule: AmountRule, field = 'amount'): bigint {
  const problem = `must be a number from ${rule.min} to ${rule.max} with at most ${rule.decimals} decimals`;
  if (!Number.isFinite(value) || value < rule.min || value > rule.max) throw AppError.badRequest(field, problem);
  const text = String(value);
  const m = /^\d+(?:\.(\d+))?$/.exec(text);
  if (!m || (m[1]?.length ?? 0) > rule.decimals) throw AppError.badRequest(field, problem);
  return decimalToMicros(text)!;
}
