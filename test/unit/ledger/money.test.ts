import { AppError } from '../../../src/errors/app-error';
import { amountToMicros, decimalToMicros, microsToDecimal, microsToNumber } from '../../../src/modules/ledger/money';

describe('money in micro-units', () => {
  it('parses decimals exactly, rounding past the sixth decimal half away from zero', () => {
    expect(decimalToMicros('12.5')).toBe(12_500_000n);
    expect(decimalToMicros('0.000001')).toBe(1n);
    expect(decimalToMicros('0.0000005')).toBe(1n);
    expect(decimalToMicros('0.0000004')).toBe(0n);
    expect(decimalToMicros('-1.25')).toBe(-1_250_000n);
    expect(decimalToMicros('1e3')).toBeNull();
    expect(decimalToMicros('abc')).toBeNull();
  });

  it('formats back', () => {
    expect(microsToDecimal(12_500_000n)).toBe('12.500000');
    expect(microsToDecimal(-1n)).toBe('-0.000001');
    expect(microsToNumber(30_123_456n)).toBe(30.123456);
  });

  it('checks input amounts against their rule', () => {
    const rule = { min: 1, max: 100, decimals: 2 };
    expect(amountToMicros(10.1, rule)).toBe(10_100_000n);
    expect(amountToMicros(99.99, rule)).toBe(99_990_000n);
    for (const bad of [0.99, 100.01, 1.001, Number.NaN, 1e-7, Infinity])
      expect(() => amountToMicros(bad, rule)).toThrow(AppError);
  });
});
