import { feesFor, levelsFor, walkBook, type FeeSchedule } from '../../../src/modules/routing/order-book.math';
import { toMicros } from '../../../src/money';
import {
  EMPTY_POSITION,
  OversellError,
  applyFill,
  applyFills,
  averagePrice,
  markValue,
  unrealizedPnl,
  type PositionState,
} from '../../../src/modules/portfolio/position.math';
import { micros } from '../../support/money';

const buy = (contracts: number, price: number, fee = 0) => ({
  side: 'buy' as const,
  size: micros(contracts),
  notional: micros(contracts * price),
  fee: micros(fee),
});
const sell = (contracts: number, price: number, fee = 0) => ({
  side: 'sell' as const,
  size: micros(contracts),
  notional: micros(contracts * price),
  fee: micros(fee),
});
const pos = (size: number, costBasis: number, realizedPnl: number, fees: number): PositionState => ({
  size: micros(size),
  costBasis: micros(costBasis),
  realizedPnl: micros(realizedPnl),
  fees: micros(fees),
});

describe('position accounting (average cost, fees realized when paid)', () => {
  it('averages buys at their fill prices; their fees lower realized PnL at once', () => {
    let p = applyFill(EMPTY_POSITION, buy(100, 0.4, 1.68)); // basis 40
    expect(p).toEqual(pos(100, 40, -1.68, 1.68));
    p = applyFill(p, buy(50, 0.46, 0.87)); // basis 40 + 23
    expect(p).toEqual(pos(150, 63, -2.55, 2.55));
    expect(averagePrice(p)).toBe(micros(0.42)); // 63 / 150
  });

  it('a partial sell releases basis pro rata and realizes proceeds − released − its fee', () => {
    let p = applyFill(EMPTY_POSITION, buy(100, 0.4)); // basis 40
    p = applyFill(p, sell(25, 0.6, 0.27)); // 15 − 10 − 0.27
    expect(p).toEqual(pos(75, 30, 4.73, 0.27));
    expect(averagePrice(p)).toBe(micros(0.4));
  });

  it('a full close releases the whole basis, leaving a flat position with exact PnL', () => {
    let p = applyFill(EMPTY_POSITION, buy(3, 0.33)); // basis 0.99
    p = applyFill(p, sell(1, 0.5)); // releases 0.33: +0.17
    expect(p).toEqual(pos(2, 0.66, 0.17, 0));
    p = applyFill(p, sell(2, 0.2)); // releases the rest, 0.66: −0.26
    expect(p).toEqual(pos(0, 0, -0.09, 0));
    expect(averagePrice(p)).toBeNull();
  });

  it('rounds a released basis half up and still closes exactly (thirds)', () => {
    const third = { side: 'buy' as const, size: micros(3), notional: micros(1), fee: 0n }; // 3 contracts for $1.000000
    let p = applyFill(EMPTY_POSITION, third);
    p = applyFill(p, sell(1, 0.5)); // released (1.000000 × 1 + 1.5) / 3 = 0.333333
    expect(p.costBasis).toBe(666_667n);
    expect(p.realizedPnl).toBe(166_667n); // 0.5 − 0.333333
    p = applyFill(p, sell(2, 0.5)); // 1.0 − 0.666667
    expect(p).toEqual({ size: 0n, costBasis: 0n, realizedPnl: 500_000n, fees: 0n }); // $1.50 in, $1.00 out
  });

  it('values a YES and a NO position at their own marks (NO mark = 1 − YES mid)', () => {
    const yes = applyFill(EMPTY_POSITION, buy(10, 0.3));
    expect(unrealizedPnl(yes, micros(0.45))).toBe(micros(1.5)); // 4.5 − 3
    const no = applyFill(EMPTY_POSITION, buy(10, 0.7)); // NO bought at 0.70
    expect(unrealizedPnl(no, micros(0.55))).toBe(micros(-1.5)); // YES mid 0.45 → NO 0.55: 5.5 − 7
    expect(markValue({ ...EMPTY_POSITION, size: 1_500_000n }, 333_333n)).toBe(500_000n); // 499,999.5 rounds half up
  });

  it('venue_b round trip: taker fees ceil to the cent on each side, realized net of both', () => {
    // Buy 10 YES at 0.40: fee ceil(0.07 × 10 × 0.40 × 0.60 = 0.168) = 0.17.
    const buyFee = feesFor('venue_b', [{ price: micros(0.4), size: micros(10) }]);
    // Sell 10 YES at 0.55: fee ceil(0.07 × 10 × 0.55 × 0.45 = 0.17325) = 0.18.
    const sellFee = feesFor('venue_b', [{ price: micros(0.55), size: micros(10) }]);
    expect([buyFee, sellFee]).toEqual([micros(0.17), micros(0.18)]);
    const p = applyFills(EMPTY_POSITION, [
      { side: 'buy', size: micros(10), notional: micros(4), fee: buyFee },
      { side: 'sell', size: micros(10), notional: micros(5.5), fee: sellFee },
    ]);
    // −0.17 + 5.50 − 4.00 − 0.18: exactly the cash out (4.17) and in (5.32).
    expect(p).toEqual(pos(0, 0, 1.15, 0.35));
  });

  it('venue_a with a configured fee: a partial sell, then unrealized at mark adds up to cash plus holding', () => {
    const schedule: FeeSchedule = { venueA: { rate: 0.02, exponent: 1 }, venueB: { takerCoefficient: 0.07 } };
    const buyFee = feesFor('venue_a', [{ price: micros(0.4), size: micros(10) }], schedule); // 0.02 × 10 × 0.24
    const sellFee = feesFor('venue_a', [{ price: micros(0.5), size: micros(4) }], schedule); // 0.02 × 4 × 0.25
    expect([buyFee, sellFee]).toEqual([48_000n, 20_000n]);
    const p = applyFills(EMPTY_POSITION, [
      { side: 'buy', size: micros(10), notional: micros(4), fee: buyFee },
      { side: 'sell', size: micros(4), notional: micros(2), fee: sellFee },
    ]);
    expect(p).toEqual(pos(6, 2.4, 0.332, 0.068)); // −0.048 + 2.0 − 1.6 − 0.02
    expect(averagePrice(p)).toBe(micros(0.4));
    expect(unrealizedPnl(p, micros(0.5))).toBe(micros(0.6)); // 3.0 − 2.4
    // Cash −4.048 + 1.98, plus 6 × 0.50 held = 0.932 = realized + unrealized.
    expect(p.realizedPnl + unrealizedPnl(p, micros(0.5))).toBe(micros(0.932));
  });

  it('a position built from a book walk: NO bought against YES bids', () => {
    const book = { bids: [{ price: 0.4, size: 100 }], asks: [{ price: 0.42, size: 30 }] };
    const walk = walkBook(levelsFor(book, 'buy', 'no'), 'buy', { contracts: 20 }); // NO ask 0.60
    const fee = feesFor('venue_b', walk.fills); // ceil(0.07 × 20 × 0.6 × 0.4 = 0.336) = 0.34
    const p = applyFill(EMPTY_POSITION, { side: 'buy', size: walk.filled, notional: walk.notional, fee });
    expect(p).toEqual(pos(20, 12, -0.34, 0.34));
    expect(averagePrice(p)).toBe(toMicros(0.6));
  });

  it('refuses to sell more than held', () => {
    expect(() => applyFill(applyFill(EMPTY_POSITION, buy(1, 0.5)), sell(2, 0.5))).toThrow(OversellError);
    expect(() => applyFill(EMPTY_POSITION, sell(1, 0.5))).toThrow(OversellError);
  });
});
