import { AppError } from '../../../src/errors/app-error';
import { checkFill, fillToTrade, fillTradeId, type OrderFilled } from '../../../src/modules/webhooks/order-filled';
import { outcomeTokenId } from '../../../src/modules/webhooks/outcome-tokens';

const base: OrderFilled = {
  id: 'x',
  transactionHash: `0x${'a'.repeat(64)}`,
  timestamp: '1700000000',
  orderHash: `0x${'b'.repeat(64)}`,
  maker: `0x${'C'.repeat(40)}`,
  taker: `0x${'d'.repeat(40)}`,
  makerAssetId: '0',
  takerAssetId: '77',
  makerAmountFilled: '333333',
  takerAmountFilled: '1000000',
  fee: '0',
};
const NOW = 1_800_000_000;

describe('OrderFilled → trade', () => {
  it('makerAssetId 0: the maker bought tokens with USDC', () => {
    const c = checkFill(base, 0, NOW);
    expect(c).toMatchObject({
      trader: `0x${'c'.repeat(40)}`,
      side: 'buy',
      tokenId: '77',
      usdc: 333_333n,
      tokens: 1_000_000n,
    });
    const t = fillToTrade(c, { venueMarketId: 'm1', outcome: 'no' });
    expect(t).toMatchObject({
      venue: 'venue_a',
      venueMarketId: 'm1',
      side: 'buy',
      outcome: 'no',
      price: 0.333333,
      size: 1,
    });
    expect(t.filledAt.toISOString()).toBe('2023-11-14T22:13:20.000Z');
  });

  it('takerAssetId 0: the maker sold tokens for USDC; the price rounds half up to micro-units', () => {
    const c = checkFill(
      { ...base, makerAssetId: '77', takerAssetId: '0', makerAmountFilled: '3000000', takerAmountFilled: '2000000' },
      0,
      NOW,
    );
    expect(c).toMatchObject({ side: 'sell', usdc: 2_000_000n, tokens: 3_000_000n });
    expect(fillToTrade(c, { venueMarketId: 'm1', outcome: 'yes' })).toMatchObject({ price: 0.666667, size: 3 });
  });

  it('the trade id is a function of the fill identity only', () => {
    const at = new Date(1_700_000_000_000);
    expect(fillTradeId('m', '0xa', 'buy', at)).toBe(fillTradeId('m', '0xa', 'buy', new Date(at)));
    const ids = new Set([
      fillTradeId('m', '0xa', 'buy', at),
      fillTradeId('m2', '0xa', 'buy', at),
      fillTradeId('m', '0xb', 'buy', at),
      fillTradeId('m', '0xa', 'sell', at),
      fillTradeId('m', '0xa', 'buy', new Date(at.getTime() + 1000)),
    ]);
    expect(ids.size).toBe(5);
    const c1 = checkFill(base, 0, NOW);
    const c2 = checkFill(
      { ...base, id: 'other', takerAmountFilled: '2000000', orderHash: `0x${'e'.repeat(64)}` },
      0,
      NOW,
    );
    const token = { venueMarketId: 'm1', outcome: 'yes' as const };
    expect(fillToTrade(c1, token).venueTradeId).toBe(fillToTrade(c2, token).venueTradeId);
  });

  it('names the offending record and field', () => {
    const err = (() => {
      try {
        checkFill({ ...base, taker: 'nope' }, 4, NOW);
      } catch (e) {
        return e as AppError;
      }
      return null;
    })();
    expect(err?.message).toBe('fills.4.taker: must be 0x and 40 hex digits');
  });

  it('a block time may be up to one hour ahead of the server clock, as the message says', () => {
    expect(checkFill({ ...base, timestamp: String(NOW + 3600) }, 0, NOW).filledAt.getTime()).toBe((NOW + 3600) * 1000);
    const ahead = (() => {
      try {
        checkFill({ ...base, timestamp: String(NOW + 3601) }, 2, NOW);
      } catch (err) {
        return err;
      }
    })();
    expect(ahead).toBeInstanceOf(AppError);
    expect((ahead as AppError).message).toBe(
      'fills.2.timestamp: must not be more than 1 hour ahead of the server clock',
    );
    expect(() => checkFill({ ...base, timestamp: '0' }, 0, NOW)).toThrow('fills.0.timestamp: must be unix seconds');
  });

  it('token ids are uint256 decimals, distinct per market and outcome', () => {
    const yes = outcomeTokenId('0xabc', 'yes');
    expect(yes).toMatch(/^\d{1,78}$/);
    expect(BigInt(yes) < 2n ** 256n).toBe(true);
    expect(new Set([yes, outcomeTokenId('0xabc', 'no'), outcomeTokenId('0xabd', 'yes')]).size).toBe(3);
  });
});
