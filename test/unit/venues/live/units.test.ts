import {
  bookSide,
  categoryOf,
  centsToPrice,
  contracts,
  decimalPrice,
  tickDecimals,
} from '../../../../src/venues/live/units';
import { retryAfterMs } from '../../../../src/venues/live/http';
import { noBidsToYesAsks } from '../../../../src/venues';

describe('venue unit conversions', () => {
  it('turns cents and dollar strings into exact 0..1 prices', () => {
    expect(centsToPrice(61)).toBe(0.61);
    expect(centsToPrice(7)).toBe(0.07);
    expect(decimalPrice('0.6100', 4)).toBe(0.61);
    expect(decimalPrice('0.0725', 4)).toBe(0.0725);
    expect(decimalPrice(0.1 + 0.2, 2)).toBe(0.3);
    expect(decimalPrice('0.615', 3)).toBe(0.615);
    expect(decimalPrice('', 2)).toBeNull();
    expect(decimalPrice('abc', 2)).toBeNull();
    expect(decimalPrice(null, 2)).toBeNull();
  });

  it('reads tick sizes as decimal places', () => {
    expect(tickDecimals(0.01)).toBe(2);
    expect(tickDecimals(0.001)).toBe(3);
    expect(tickDecimals(0.0001)).toBe(4);
    expect(tickDecimals(0)).toBe(2);
  });

  it('reads fixed-point counts', () => {
    expect(contracts('13.00')).toBe(13);
    expect(contracts('12.50')).toBe(12.5);
    expect(contracts(820.5)).toBe(820.5);
    expect(contracts('x')).toBe(0);
  });

  it('makes NO bids into YES asks without float residue, best first', () => {
    const asks = noBidsToYesAsks(
      [
        { price: 0.33, size: 1 },
        { price: 0.38, size: 2 },
        { price: 0.3333, size: 3 },
      ],
      0.0001,
    );
    expect(asks).toEqual([
      { price: 0.62, size: 2 },
      { price: 0.6667, size: 3 },
      { price: 0.67, size: 1 },
    ]);
  });

  it('merges a side per price, drops empty and out-of-range levels, and sorts best first', () => {
    const levels = [
      { price: 0.5, size: 1 },
      { price: 0.52, size: 2 },
      { price: 0.5, size: 0.25 },
      { price: 0.4, size: 0 },
      { price: 1, size: 5 },
    ];
    expect(bookSide(levels, 'bids')).toEqual([
      { price: 0.52, size: 2 },
      { price: 0.5, size: 1.25 },
    ]);
    expect(bookSide(levels, 'asks', 1)).toEqual([{ price: 0.5, size: 1.25 }]);
  });

  it('maps venue labels onto the catalog categories', () => {
    expect(categoryOf(['Economics'])).toBe('economics');
    expect(categoryOf([null, 'Climate and Weather'])).toBe('science');
    expect(categoryOf(['Pop Culture'])).toBe('culture');
    expect(categoryOf(['Elections'])).toBe('politics');
    expect(categoryOf(['Mystery'])).toBe('other');
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('0.5')).toBe(500);
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(retryAfterMs('Wed, 25 Nov 2026 12:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs(undefined)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
  });
});
