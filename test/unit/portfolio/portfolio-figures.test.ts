import { bookMid } from '../../../src/modules/portfolio/marks.service';
import { outcomeMark } from '../../../src/modules/portfolio/position.math';
import {
  categoryFigures,
  summarize,
  valuation,
  weekStart,
  type FigurePosition,
} from '../../../src/modules/portfolio/portfolio-figures';
import { micros } from '../../support/money';

function position(p: Partial<FigurePosition>): FigurePosition {
  return {
    source: 'service',
    venue: 'venue_a',
    category: 'politics',
    status: 'open',
    size: 0n,
    costBasis: 0n,
    realizedPnl: 0n,
    fees: 0n,
    mark: null,
    ...p,
  };
}

describe('marks', () => {
  it('a NO contract is marked at 1 − the YES mid', () => {
    expect(outcomeMark(micros('0.45'), 'yes')).toBe(micros('0.45'));
    expect(outcomeMark(micros('0.45'), 'no')).toBe(micros('0.55'));
    expect(outcomeMark(micros('0.521500'), 'no')).toBe(micros('0.478500'));
  });

  it(
    'mid of the best levels rounds half up to the micro-dollar; one side alone is its price; an empty book has ' +
      'none',
    () => {
      expect(bookMid({ bids: [{ price: 0.52, size: 1 }], asks: [{ price: 0.55, size: 1 }] })).toBe(micros('0.535'));
      expect(bookMid({ bids: [{ price: 0.521, size: 1 }], asks: [{ price: 0.522, size: 1 }] })).toBe(micros('0.5215'));
      // 0.000001 and 0.000002: the exact mid 0.0000015 rounds up to 0.000002.
      expect(bookMid({ bids: [{ price: 0.000001, size: 1 }], asks: [{ price: 0.000002, size: 1 }] })).toBe(2n);
      expect(bookMid({ bids: [{ price: 0.4, size: 1 }], asks: [] })).toBe(micros('0.4'));
      expect(bookMid({ bids: [], asks: [{ price: 0.61, size: 1 }] })).toBe(micros('0.61'));
      expect(bookMid({ bids: [], asks: [] })).toBeNull();
    },
  );
});

describe('valuation', () => {
  it('values 10 contracts bought for 3.00 at a 0.45 mark: 4.50, +1.50', () => {
    expect(valuation({ size: micros('10'), costBasis: micros('3'), mark: micros('0.45') })).toEqual({
      marketValue: micros('4.5'),
      unrealized: micros('1.5'),
    });
  });

  it('a NO position bought at 0.70 with YES at 0.45 (NO 0.55) loses 1.50 on 10 contracts', () => {
    expect(valuation({ size: micros('10'), costBasis: micros('7'), mark: outcomeMark(micros('0.45'), 'no') })).toEqual({
      marketValue: micros('5.5'),
      unrealized: micros('-1.5'),
    });
  });

  it('is zero when flat and unknown without a mark', () => {
    expect(valuation({ size: 0n, costBasis: 0n, mark: null })).toEqual({ marketValue: 0n, unrealized: 0n });
    expect(valuation({ size: micros('5'), costBasis: micros('2'), mark: null })).toEqual({
      marketValue: null,
      unrealized: null,
    });
  });
});

describe('summary', () => {
  // Hand-computed portfolio:
  //   P1 service venue_a politics YES 100 @ cost 40.00, fees 1.68, mark 0.55 → 55.00, +15.00
  //   P2 service venue_b sports NO 50 @ cost 30.00, fees 0.50, YES 0.48 → NO 0.52 → 26.00, −4.00
  //   P3 service venue_b sports closed, realized +4.73, fees 0.27
  //   P4 wallet venue_a politics YES 20 @ cost 10.00, realized +2.00, no fees, mark 0.40 → 8.00, −2.00
  //   P5 service venue_a crypto YES 10 @ cost 5.00, no mark → counted at cost, no unrealized
  //   P6 service pending (a live order's first fill not yet in)
  const positions = [
    position({ size: micros('100'), costBasis: micros('40'), fees: micros('1.68'), mark: micros('0.55') }),
    position({
      venue: 'venue_b',
      category: 'sports',
      size: micros('50'),
      costBasis: micros('30'),
      fees: micros('0.5'),
      mark: outcomeMark(micros('0.48'), 'no'),
    }),
    position({
      venue: 'venue_b',
      category: 'sports',
      status: 'closed',
      realizedPnl: micros('4.73'),
      fees: micros('0.27'),
    }),
    position({
      source: 'wallet',
      size: micros('20'),
      costBasis: micros('10'),
      realizedPnl: micros('2'),
      fees: null,
      mark: micros('0.4'),
    }),
    position({ category: 'crypto', size: micros('10'), costBasis: micros('5') }),
    position({ status: 'pending' }),
  ];

  it('totals realized over every position and value, cost and unrealized over the open ones', () => {
    const s = summarize(positions);
    expect(s.realizedPnl).toBe(micros('6.73')); // 4.73 + 2.00
    expect(s.fees).toBe(micros('2.45')); // 1.68 + 0.50 + 0.27
    expect(s.unrealizedPnl).toBe(micros('9')); // 15 − 4 − 2
    expect(s.costBasis).toBe(micros('85')); // 40 + 30 + 10 + 5
    expect(s.marketValue).toBe(micros('94')); // 55 + 26 + 8 + 5 (P5 at cost)
    expect([s.openPositions, s.closedPositions, s.unmarkedPositions]).toEqual([4, 1, 1]);
  });

  it('splits exposure by venue and category, largest first, shares of 94.00 in millionths', () => {
    const s = summarize(positions);
    expect(s.byVenue).toEqual([
      {
        key: 'venue_a',
        positions: 3,
        costBasis: micros('55'),
        marketValue: micros('68'),
        unrealizedPnl: micros('13'),
        shareMillionths: 723404n,
      },
      {
        key: 'venue_b',
        positions: 1,
        costBasis: micros('30'),
        marketValue: micros('26'),
        unrealizedPnl: micros('-4'),
        shareMillionths: 276596n,
      },
    ]);
    expect(s.byCategory).toEqual([
      {
        key: 'politics',
        positions: 2,
        costBasis: micros('50'),
        marketValue: micros('63'),
        unrealizedPnl: micros('13'),
        shareMillionths: 670213n,
      },
      {
        key: 'sports',
        positions: 1,
        costBasis: micros('30'),
        marketValue: micros('26'),
        unrealizedPnl: micros('-4'),
        shareMillionths: 276596n,
      },
      {
        key: 'crypto',
        positions: 1,
        costBasis: micros('5'),
        marketValue: micros('5'),
        unrealizedPnl: 0n,
        shareMillionths: 53191n,
      },
    ]);
  });

  it('splits PnL by source: the service (with fees) and the linked wallets', () => {
    const s = summarize(positions);
    expect(s.bySource).toEqual([
      {
        key: 'service',
        positions: 3,
        costBasis: micros('75'),
        marketValue: micros('86'),
        unrealizedPnl: micros('11'),
        shareMillionths: 914894n, // 86 / 94
        realizedPnl: micros('4.73'),
        fees: micros('2.45'),
      },
      {
        key: 'wallet',
        positions: 1,
        costBasis: micros('10'),
        marketValue: micros('8'),
        unrealizedPnl: micros('-2'),
        shareMillionths: 85106n,
        realizedPnl: micros('2'),
        fees: 0n,
      },
    ]);
  });

  it('is all zeros for an empty portfolio', () => {
    const s = summarize([]);
    expect([s.realizedPnl, s.unrealizedPnl, s.marketValue, s.fees]).toEqual([0n, 0n, 0n, 0n]);
    expect(s.byVenue).toEqual([]);
  });
});

describe('category figures', () => {
  it('counts closed wins and losses per category; break-even closes are neither; open exposure alongside', () => {
    const rows = categoryFigures([
      position({ size: micros('100'), costBasis: micros('40'), mark: micros('0.55') }), // politics open, 55.00
      position({ status: 'closed', realizedPnl: micros('-1.2') }), // politics loss
      position({ status: 'closed', realizedPnl: 0n }), // politics break-even
      position({ category: 'crypto', status: 'closed', realizedPnl: micros('4.73') }), // crypto win
      position({ category: 'crypto', status: 'closed', realizedPnl: micros('0.5') }), // crypto win
      position({ category: 'crypto', status: 'closed', realizedPnl: micros('-2') }), // crypto loss
      position({ category: null, status: 'closed', realizedPnl: micros('1') }), // unknown market: win
    ]);
    expect(rows).toEqual([
      {
        category: 'politics',
        closedPositions: 2,
        wins: 0,
        losses: 1,
        winRateMillionths: 0n,
        realizedPnl: micros('-1.2'),
        openPositions: 1,
        exposure: micros('55'),
        exposureShareMillionths: 1_000_000n,
      },
      {
        category: 'crypto',
        closedPositions: 3,
        wins: 2,
        losses: 1,
        winRateMillionths: 666667n, // 2 / 3
        realizedPnl: micros('3.23'),
        openPositions: 0,
        exposure: 0n,
        exposureShareMillionths: 0n,
      },
      {
        category: 'unknown',
        closedPositions: 1,
        wins: 1,
        losses: 0,
        winRateMillionths: 1_000_000n,
        realizedPnl: micros('1'),
        openPositions: 0,
        exposure: 0n,
        exposureShareMillionths: 0n,
      },
    ]);
  });

  it('has no win rate before a decided close', () => {
    expect(
      categoryFigures([position({ size: micros('1'), costBasis: micros('0.5'), mark: micros('0.5') })])[0]
        .winRateMillionths,
    ).toBeNull();
  });
});

describe('weekStart', () => {
  it('is Monday 00:00 UTC of the ISO week', () => {
    expect(weekStart(new Date('2026-11-15T12:07:30Z')).toISOString()).toBe('2026-11-09T00:00:00.000Z'); // a Sunday
    expect(weekStart(new Date('2026-11-16T00:00:00Z')).toISOString()).toBe('2026-11-16T00:00:00.000Z'); // a Monday
    expect(weekStart(new Date('2026-11-18T23:59:59Z')).toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(weekStart(new Date('2027-01-01T10:00:00Z')).toISOString()).toBe('2026-12-28T00:00:00.000Z'); // across a year
  });
});
