import { feesFor, levelsFor, quote, toMicros, walkBook } from '../../../src/modules/routing/order-book.math';

// Hand-computed cases on one YES book: bids 0.40×100, 0.38×50; asks 0.42×30, 0.45×100 (mid 0.41).
const book = {
  bids: [
    { price: 0.4, size: 100 },
    { price: 0.38, size: 50 },
  ],
  asks: [
    { price: 0.42, size: 30 },
    { price: 0.45, size: 100 },
  ],
};

describe('levelsFor', () => {
  it('turns YES bids into NO asks at 1 − p and YES asks into NO bids', () => {
    expect(levelsFor(book, 'buy', 'no')).toEqual([
      { price: toMicros(0.6), size: toMicros(100) },
      { price: toMicros(0.62), size: toMicros(50) },
    ]);
    expect(levelsFor(book, 'sell', 'no').map((l) => l.price)).toEqual([toMicros(0.58), toMicros(0.55)]);
    expect(levelsFor(book, 'buy', 'yes').map((l) => l.price)).toEqual([toMicros(0.42), toMicros(0.45)]);
  });
});

describe('quote', () => {
  it('buys 50 YES on venue_b across two levels with the taker fee per fill, rounded up to the cent', () => {
    const q = quote('venue_b', book, 'buy', 'yes', { contracts: 50 });
    expect(q).toMatchObject({
      contracts: 50,
      complete: true,
      notionalUsd: 21.6, // 30 × 0.42 + 20 × 0.45
      avgPrice: 0.432,
      worstPrice: 0.45,
      mid: 0.41,
      slippage: 0.022,
      slippageBps: 536, // 0.022 / 0.41
      feesUsd: 0.87, // ceil(0.51156) + ceil(0.3465) in cents
      allInUsd: 22.47,
      allInPrice: 0.4494,
    });
  });

  it('buys 120 NO on venue_b against the YES bids', () => {
    const q = quote('venue_b', book, 'buy', 'no', { contracts: 120 });
    expect(q).toMatchObject({
      notionalUsd: 72.4, // 100 × 0.60 + 20 × 0.62
      avgPrice: 0.603333,
      mid: 0.59,
      feesUsd: 2.01, // 1.68 + ceil(0.32984)
      allInUsd: 74.41,
    });
    expect(q.slippage).toBeCloseTo(0.013333, 6);
  });

  it('sells YES into the bids (fees deducted from proceeds) and NO into the flipped asks', () => {
    const y = quote('venue_a', book, 'sell', 'yes', { contracts: 120 });
    expect(y).toMatchObject({ notionalUsd: 47.6, avgPrice: 0.396666, feesUsd: 0, allInUsd: 47.6 });
    expect(y.slippage).toBeCloseTo(0.013334, 6);
    const n = quote('venue_b', book, 'sell', 'no', { contracts: 40 });
    // 30 × 0.58 + 10 × 0.55; fees ceil(0.07·30·0.58·0.42 = 0.51156) + ceil(0.07·10·0.55·0.45 = 0.17325)
    expect(n).toMatchObject({ notionalUsd: 22.9, feesUsd: 0.7, allInUsd: 22.2 });
  });

  it('spends a USD amount without exceeding it', () => {
    const q = quote('venue_a', book, 'buy', 'yes', { usd: 20 });
    expect(q.contracts).toBeCloseTo(46.444444, 6); // 30 + 7.40 / 0.45
    expect(q.notionalUsd).toBe(20);
    expect(q.complete).toBe(true);
    const zero = quote('venue_a', book, 'buy', 'yes', { usd: 0 });
    expect(zero).toMatchObject({ contracts: 0, notionalUsd: 0, avgPrice: null, complete: true });
  });

  it('stops at the limit price and when the book runs out', () => {
    expect(quote('venue_a', book, 'buy', 'yes', { contracts: 50 }, { limitPrice: 0.43 })).toMatchObject({
      contracts: 30,
      complete: false,
    });
    expect(quote('venue_a', book, 'sell', 'yes', { contracts: 50 }, { limitPrice: 0.4 })).toMatchObject({
      contracts: 50,
      complete: true,
    });
    expect(quote('venue_a', book, 'buy', 'yes', { contracts: 200 })).toMatchObject({ contracts: 130, complete: false });
  });

  it('has no mid or slippage on a one-sided book', () => {
    const q = quote('venue_a', { bids: [], asks: book.asks }, 'buy', 'yes', { contracts: 10 });
    expect(q).toMatchObject({ mid: null, slippage: null, slippageBps: null, avgPrice: 0.42 });
  });
});

describe('feesFor', () => {
  it('charges venue_a rate × C × (p(1 − p))^exponent when configured, nothing by default', () => {
    const walk = walkBook(levelsFor(book, 'buy', 'yes'), 'buy', { contracts: 50 });
    expect(feesFor('venue_a', walk.fills)).toBe(0n);
    const schedule = { venueA: { rate: 0.02, exponent: 1 }, venueB: { takerCoefficient: 0.07 } };
    // 30 × 0.02 × 0.2436 + 20 × 0.02 × 0.2475
    expect(feesFor('venue_a', walk.fills, schedule)).toBe(245_160n);
  });

  it('rounds venue_b fees up to the next cent even for a tiny fill', () => {
    expect(feesFor('venue_b', [{ price: toMicros(0.5), size: toMicros(1) }])).toBe(20_000n); // 0.0175 → 0.02
    expect(feesFor('venue_b', [{ price: toMicros(0.99), size: toMicros(1) }])).toBe(10_000n); // 0.000693 → 0.01
  });
});
