import { EMPTY_POSITION, OversellError, applyFill, averagePrice, unrealizedPnl } from '../../../src/modules/portfolio/position.math';

const M = (usd: number) => BigInt(Math.round(usd * 1e6));
const buy = (contracts: number, price: number, fee = 0) => ({ side: 'buy' as const, size: M(contracts), notional: M(contracts * price), fee: M(fee) });
const sell = (contracts: number, price: number, fee = 0) => ({ side: 'sell' as const, size: M(contracts), notional: M(contracts * price), fee: M(fee) });

describe('position accounting', () => {
  it('averages buys at cost including fees', () => {
    let p = applyFill(EMPTY_POSITION, buy(100, 0.4, 1.68)); // 40 + 1.68
    p = applyFill(p, buy(50, 0.46, 0.87)); // 23 + 0.87
    expect(p.size).toBe(M(150));
    expect(p.costBasis).toBe(M(65.55));
    expect(averagePrice(p)).toBe(M(0.437)); // 65.55 / 150
    expect(p.fees).toBe(M(2.55));
  });

  it('realizes PnL on a partial sell and releases basis pro rata', () => {
    let p = applyFill(EMPTY_POSITION, buy(100, 0.4)); // basis 40
    p = applyFill(p, sell(25, 0.6, 0.27)); // proceeds 15 − fee 0.27 − released 10
    expect(p).toEqual({ size: M(75), costBasis: M(30), realizedPnl: M(4.73), fees: M(0.27) });
    expect(averagePrice(p)).toBe(M(0.4));
  });

  it('a full close releases the whole basis and leaves a flat position', () => {
    let p = applyFill(EMPTY_POSITION, buy(3, 0.33)); // basis 0.99
    p = applyFill(p, sell(1, 0.5));
    p = applyFill(p, sell(2, 0.2));
    expect(p.size).toBe(0n);
    expect(p.costBasis).toBe(0n);
    // 0.5 + 0.4 − 0.99
    expect(p.realizedPnl).toBe(M(-0.09));
    expect(averagePrice(p)).toBeNull();
  });

  it('values unrealized PnL at the mark, for either outcome', () => {
    const yes = applyFill(EMPTY_POSITION, buy(10, 0.3));
    expect(unrealizedPnl(yes, M(0.45))).toBe(M(1.5));
    const no = applyFill(EMPTY_POSITION, buy(10, 0.7)); // a NO position bought at 0.70
    expect(unrealizedPnl(no, M(0.55))).toBe(M(-1.5)); // NO mark = 1 − YES mid 0.45
  });

  it('refuses to sell more than held', () => {
    expect(() => applyFill(applyFill(EMPTY_POSITION, buy(1, 0.5)), sell(2, 0.5))).toThrow(OversellError);
  });
});
