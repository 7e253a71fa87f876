import { AppError } from '../../../src/errors/app-error';
import { amountToMicros, decimalToMicros, microsToDecimal, microsToNumber } from '../../../src/money';
import { mulMicros, ratioMicros, toMicros, round6, usdText } from '../../../src/money/money';

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

describe('mulMicros', () => {
  it('rounds a product of micro-units half up to the micro-unit (price × size is a notional)', () => {
    expect(mulMicros(400_000n, 10_000_000n)).toBe(4_000_000n); // 0.40 × 10 = 4.00
    expect(mulMicros(333_333n, 1_500_000n)).toBe(500_000n); // 0.333333 × 1.5 = 0.4999995: the half rounds up
    expect(mulMicros(333_333n, 1_000_001n)).toBe(333_333n); // 0.333333333… rounds down
  });
});

describe('ratioMicros', () => {
  it('divides in millionths, half up, and answers 0 for a zero total', () => {
    expect(ratioMicros(1_000_000n, 3_000_000n)).toBe(333_333n); // 1/3 = 0.3333333…
    expect(ratioMicros(2_000_000n, 3_000_000n)).toBe(666_667n); // 2/3 = 0.6666666…: rounds up
    expect(ratioMicros(5n, 0n)).toBe(0n);
  });
});

describe('toMicros and round6', () => {
  it('rounds a number to the nearest micro-unit; refuses what is not finite', () => {
    expect(toMicros(0.145)).toBe(145_000n); // 0.145 × 1e6 is 144999.99999999997 as a double: the nearest is 145000
    expect(toMicros(12.3456789)).toBe(12_345_679n);
    expect(() => toMicros(Number.NaN)).toThrow(RangeError);
    expect(round6(0.1 + 0.2)).toBe(0.3); // 0.30000000000000004 prints as 0.3
  });
});

describe('usdText', () => {
  it('shows micro-USD as dollars and cents', () => {
    expect(usdText(12_500_000n)).toBe('$12.50');
    expect(usdText(4_999n)).toBe('$0.00'); // 0.004999 rounds down to the cent
  });
});
