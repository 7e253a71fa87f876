import {
  depthOf,
  feeOf,
  feesFor,
  levelsFor,
  priceBook,
  quote,
  walkBook,
  type FeeSchedule,
} from '../../../src/modules/routing/order-book.math';
import { toMicros } from '../../../src/money';
import { betterQuote } from '../../../src/modules/routing/routing.models';

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
      fillableContracts: 130, // 30 + 100 on the asks
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

describe('book walks: more hand-computed cases', () => {
  it('sells a USD amount: the fewest contracts that receive at most it', () => {
    // Bids 0.40 × 100: $10 is 25 contracts.
    const q = quote('venue_a', book, 'sell', 'yes', { usd: 10 });
    expect(q).toMatchObject({ contracts: 25, notionalUsd: 10, avgPrice: 0.4, complete: true });
  });

  it('a NO limit buy stops at the flipped levels (NO asks 0.60, 0.62)', () => {
    const q = quote('venue_b', book, 'buy', 'no', { contracts: 150 }, { limitPrice: 0.61 });
    // Only the 0.60 level is within 0.61: 100 contracts, fee ceil(0.07 × 100 × 0.6 × 0.4 = 1.68).
    expect(q).toMatchObject({
      contracts: 100,
      complete: false,
      notionalUsd: 60,
      feesUsd: 1.68,
      allInUsd: 61.68,
      fillableContracts: 100,
    });
  });

  it('reports the depth under a limit (the fillable size)', () => {
    expect(depthOf(levelsFor(book, 'buy', 'yes'), 'buy')).toBe(toMicros(130));
    expect(depthOf(levelsFor(book, 'buy', 'yes'), 'buy', 0.44)).toBe(toMicros(30));
    expect(depthOf(levelsFor(book, 'sell', 'no'), 'sell', 0.56)).toBe(toMicros(30)); // NO bids 0.58, 0.55
  });

  it("keeps each fill's fee (what execution records per fill)", () => {
    const q = priceBook('venue_b', book, 'buy', 'yes', { contracts: 50 });
    expect(q.fills).toEqual([
      { price: toMicros(0.42), size: toMicros(30) },
      { price: toMicros(0.45), size: toMicros(20) },
    ]);
    expect(q.fillFees).toEqual([520_000n, 350_000n]); // ceil(0.51156), ceil(0.3465)
    expect(q.fees).toBe(870_000n);
  });
});

describe('venue_b taker fee: ceil to the cent of 0.07 × C × p × (1 − p)', () => {
  it.each([
    [1, 0.5, 20_000n], // 0.0175 → 0.02
    [1, 0.99, 10_000n], // 0.000693 → 0.01
    [100, 0.5, 1_750_000n], // exactly 1.75: no rounding up
    [7, 0.3, 110_000n], // 0.1029 → 0.11
    [3, 0.35, 50_000n], // 0.047775 → 0.05
    [1000, 0.01, 700_000n], // 0.693 → 0.70
  ])('%d contracts at %d', (contracts, price, fee) => {
    expect(feeOf('venue_b', { price: toMicros(price), size: toMicros(contracts) })).toBe(fee);
  });

  it('uses the configured coefficient', () => {
    const schedule: FeeSchedule = { venueA: { rate: 0, exponent: 1 }, venueB: { takerCoefficient: 0.035 } };
    expect(feeOf('venue_b', { price: toMicros(0.5), size: toMicros(100) }, schedule)).toBe(880_000n); // 0.875 → 0.88
  });
});

describe('venue_a fee: rate × C × (p(1 − p))^exponent, rounded up to the micro', () => {
  it.each([
    [0.1, 2, 10, 0.5, 62_500n], // 0.1 × 10 × 0.0625
    [0.01, 0.5, 100, 0.5, 500_000n], // 0.01 × 100 × √0.25
    [0.02, 1, 3, 0.33, 13_266n], // 0.02 × 3 × 0.2211 = 0.013266, exact
    [0.012346, 1, 1, 0.5, 3_087n], // 0.012346 × 0.25 = 0.0030865 → up to 0.003087
  ])('rate %d, exponent %d: %d contracts at %d', (rate, exponent, contracts, price, fee) => {
    const schedule: FeeSchedule = { venueA: { rate, exponent }, venueB: { takerCoefficient: 0.07 } };
    expect(feeOf('venue_a', { price: toMicros(price), size: toMicros(contracts) }, schedule)).toBe(fee);
  });
});

describe('betterQuote (the best venue for the trader)', () => {
  const q = (venue: 'venue_a' | 'venue_b', over: Partial<ReturnType<typeof quote>>) => ({
    ...quote(venue, book, 'buy', 'yes', { contracts: 10 }),
    ...over,
  });
  it('prefers a complete fill, then the lower all-in price for buys (higher for sells), then more contracts', () => {
    const a = q('venue_a', { allInPrice: 0.45, complete: true });
    const b = q('venue_b', { allInPrice: 0.44, complete: true });
    expect(betterQuote(a, b)).toBe(b);
    expect(betterQuote(a, { ...b, complete: false })).toBe(a);
    expect(betterQuote({ ...a, side: 'sell' }, { ...b, side: 'sell' })!.venue).toBe('venue_a');
    expect(betterQuote(a, { ...b, contracts: 0, allInPrice: null })).toBe(a);
    expect(betterQuote(null, null)).toBeNull();
  });
});
