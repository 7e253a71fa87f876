import { AppError } from '../../../src/errors/app-error';
import { checkExecuteRequest, checkSellRequest, sizeMicrosFor } from '../../../src/modules/execution/execute-request';
import type { ExecuteRequest } from '../../../src/modules/execution/execution.models';

const base: ExecuteRequest = { marketId: 'KX-1', side: 'buy', outcome: 'yes', size: 10 };

function problem(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    if (err instanceof AppError && err.code === 'bad_request') return err.message;
    throw err;
  }
  throw new Error('no error');
}

describe('checkExecuteRequest', () => {
  it('defaults to a simulated market order; a limit price alone makes a limit order', () => {
    expect(checkExecuteRequest(base)).toMatchObject({ orderType: 'market', mode: 'simulation', limitPrice: undefined });
    expect(checkExecuteRequest({ ...base, limitPrice: 0.4 })).toMatchObject({ orderType: 'limit', limitPrice: 0.4 });
    expect(checkExecuteRequest({ ...base, limitPrice: 0.4, orderType: 'limit' })).toMatchObject({
      orderType: 'limit',
      limitPrice: 0.4,
    });
    expect(checkExecuteRequest({ ...base, size: 0 })).toMatchObject({ size: 0 });
  });

  it.each([
    [{ marketId: '' }, /^marketId: /],
    [{ side: 'hold' }, /^side: must be one of buy, sell/],
    [{ outcome: undefined }, /^outcome: is required/],
    [{ size: -1 }, /^size: /],
    [{ size: Number.NaN }, /^size: /],
    [{ size: 1_000_001 }, /^size: /],
    [{ limitPrice: 1.01 }, /^limitPrice: must be a number from 0 to 1/],
    [{ orderType: 'limit' }, /^limitPrice: is required for a limit order/],
    [{ orderType: 'market', limitPrice: 0.4 }, /^limitPrice: is not allowed with orderType market/],
    [{ orderType: 'market', limitPrice: 0 }, /^limitPrice: is not allowed with orderType market/],
    [{ orderType: 'stop' }, /^orderType: /],
    [{ mode: 'paper' }, /^mode: /],
    [{ venue: 'venue_c' }, /^venue: /],
    [{ fundingSourceChain: 'ethereum' }, /^fundingSourceChain: /],
    [{ fundingAmountAtomic: '1.5' }, /^fundingAmountAtomic: /],
    [{ eventTitle: 'x'.repeat(201) }, /^eventTitle: /],
  ])('400 naming the field: %j', (over, message) => {
    expect(problem(() => checkExecuteRequest({ ...base, ...over } as ExecuteRequest))).toMatch(message);
  });
});

describe('checkSellRequest', () => {
  it('takes an empty body, and checks what is given', () => {
    expect(checkSellRequest({})).toEqual({
      size: undefined,
      limitPrice: undefined,
      orderType: 'market',
      mode: undefined, // the position's own mode
    });
    expect(problem(() => checkSellRequest({ size: 0 }))).toMatch(/^size: /);
    expect(problem(() => checkSellRequest({ orderType: 'limit' }))).toMatch(/^limitPrice: /);
    expect(problem(() => checkSellRequest({ orderType: 'market', limitPrice: 0.5 }))).toMatch(
      /^limitPrice: is not allowed with orderType market/,
    );
    expect(checkSellRequest({ limitPrice: 0.5 })).toMatchObject({ orderType: 'limit', limitPrice: 0.5 });
  });
});

describe('sizeMicrosFor (venue precision)', () => {
  it('venue_b trades whole contracts; venue_a takes two decimals', () => {
    expect(sizeMicrosFor('venue_b', 12)).toBe(12_000_000n);
    expect(problem(() => sizeMicrosFor('venue_b', 1.5))).toBe('size: venue_b trades whole contracts only');
    expect(sizeMicrosFor('venue_a', 0.29)).toBe(290_000n);
    expect(problem(() => sizeMicrosFor('venue_a', 0.125))).toBe('size: venue_a takes at most 2 decimals');
    expect(sizeMicrosFor('venue_a', 0)).toBe(0n);
  });
});
