import { bucketStart } from '../../../src/modules/charts';
import { groupBubbles, type BubbleTrade } from '../../../src/modules/social/traders/bubbles';
import { micros } from '../../support/money';

const T = 1_763_200_800; // a multiple of 3600 and of 86400
const trade = (
  traderId: string,
  size: string,
  price: string,
  at: number,
  over: Partial<BubbleTrade> = {},
): BubbleTrade => ({
  venue: 'venue_a',
  marketId: 'm1',
  traderId,
  side: 'buy',
  outcome: 'yes',
  price: micros(Number(price)),
  size: micros(Number(size)),
  filledAt: new Date(at),
  ...over,
});

describe('groupBubbles', () => {
  it('sums each trader per bubble and ranks by size, then notional, then trader id', () => {
    const bubbles = groupBubbles(
      [
        trade('a', '10', '0.40', T * 1000 + 60_000),
        trade('a', '5', '0.50', T * 1000 + 3_000_000),
        trade('b', '12', '0.45', T * 1000 + 600_000),
        trade('c', '3', '0.50', (T + 3600) * 1000 - 1),
      ],
      '1h',
      2,
    );
    expect(bubbles).toEqual([
      {
        t: T,
        venue: 'venue_a',
        marketId: 'm1',
        side: 'buy',
        outcome: 'yes',
        traderCount: 3,
        trades: 4,
        size: 30,
        notional: 13.4,
        traders: [
          { traderId: 'a', size: 15, notional: 6.5, avgPrice: 0.433333, trades: 2 },
          { traderId: 'b', size: 12, notional: 5.4, avgPrice: 0.45, trades: 1 },
        ],
      },
    ]);
    const ties = groupBubbles(
      [trade('z', '8', '0.5', T * 1000), trade('y', '8', '0.6', T * 1000), trade('x', '8', '0.6', T * 1000)],
      '1h',
      3,
    );
    expect(ties[0].traders.map((t) => t.traderId)).toEqual(['x', 'y', 'z']);
  });

  it('keys bubbles by bucket, venue, market, side and outcome, sorted that way', () => {
    const at = T * 1000;
    const bubbles = groupBubbles(
      [
        trade('a', '1', '0.5', at + 3_600_000), // next bucket
        trade('a', '1', '0.5', at, { outcome: 'no' }),
        trade('a', '1', '0.5', at, { side: 'sell' }),
        trade('a', '1', '0.5', at, { marketId: 'm0' }),
        trade('a', '1', '0.5', at, { venue: 'venue_b' }),
        trade('a', '1', '0.5', at),
      ],
      '1h',
      5,
    );
    expect(bubbles.map((b) => [b.t - T, b.venue, b.marketId, b.side, b.outcome])).toEqual([
      [0, 'venue_a', 'm0', 'buy', 'yes'],
      [0, 'venue_a', 'm1', 'buy', 'no'],
      [0, 'venue_a', 'm1', 'buy', 'yes'],
      [0, 'venue_a', 'm1', 'sell', 'yes'],
      [0, 'venue_b', 'm1', 'buy', 'yes'],
      [3600, 'venue_a', 'm1', 'buy', 'yes'],
    ]);
  });

  it.each(['1m', '5m', '1h', '1d', '1w'] as const)('snaps %s bubbles with the history bucketing', (interval) => {
    const times = [0, 59_999, 60_000, 299_999, 3_599_999, 86_399_999, 7 * 86_400_000 - 1].map((d) => T * 1000 + d);
    const bubbles = groupBubbles(
      times.map((ms, i) => trade(`t${i}`, '1', '0.5', ms)),
      interval,
      20,
    );
    const expected = [...new Set(times.map((ms) => bucketStart(Math.floor(ms / 1000), interval)))];
    expect(bubbles.map((b) => b.t)).toEqual(expected);
  });

  it('is empty for no trades', () => {
    expect(groupBubbles([], '1h', 5)).toEqual([]);
  });
});
