/**
 * Exact conversions between database decimals (up to 6 places) and integer
 * micro-units, so sums never pass through binary floats.
 */
export function decimalToMicros(value: { toString(): string } | string): bigint {
  const s = typeof value === 'string' ? value : value.toString();
  const m = /^(-?)(\d+)(?:\.(\d{0,6})\d*)?$/.exec(s.trim());
  if (!m) throw new RangeError(`not a decimal: ${s}`);
  const micros = BigInt(m[2]!) * 1_000_000n + BigInt((m[3] ?? '').padEnd(6, '0'));
  return m[1] ? -micros : micros;
}

export function microsToDecimal(micros: bigint): string {
  const neg = micros < 0n;
  const abs = neg ? -micros : micros;
  return `${neg ? '-' : ''}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0')}`;
}

/** For JSON: micro-units to a number (cent-precise money and 6-place prices are exact enough as doubles). */
export function microsToNumber(micros: bigint): number {
  return Number(micros) / 1e6;
}
