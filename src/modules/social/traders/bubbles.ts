import { microsToNumber, mulMicros, ratioMicros } from '../../../money';
import { bucketStart } from '../../charts/candles';
import type { HistoryInterval } from '../../charts/charts.limits';
import type { OutcomeSide, Side, Venue } from '../../../venues/venue.models';

/** A followed trader's fill as the overlay groups it (micro-units). */
export interface BubbleTrade {
  venue: Venue;
  marketId: string;
  traderId: string;
  side: Side;
  outcome: OutcomeSide;
  /** Micro-USD per contract. */
  price: bigint;
  /** Micro-contracts. */
  size: bigint;
  filledAt: Date;
}

/** One trader's trades inside a bubble. */
export interface BubbleTraderView {
  traderId: string;
  /** Contracts traded in the bucket. */
  size: number;
  /** USD exchanged (price × size). */
  notional: number;
  /** Volume-weighted average price. */
  avgPrice: number;
  trades: number;
}

/**
 * Followed traders' trades sharing one group key: the candle bucket of the
 * fill time (`t`, the x-coordinate history rows snap to), venue, market,
 * side and outcome. Totals cover every trader in the bucket; `traders` holds
 * the `topN` largest.
 */
export interface BubbleView {
  t: number;
  venue: Venue;
  marketId: string;
  side: Side;
  outcome: OutcomeSide;
  /** Followed traders with a trade in the bubble (all of them, not only the listed top N). */
  traderCount: number;
  trades: number;
  size: number;
  notional: number;
  traders: BubbleTraderView[];
}

interface TraderAcc {
  traderId: string;
  size: bigint;
  notional: bigint;
  trades: number;
}

const toNumber = microsToNumber;

/** Larger size first, then larger notional, then trader id: a total order, so top N is stable. */
function byTradeSize(a: TraderAcc, b: TraderAcc): number {
  if (a.size !== b.size) return a.size > b.size ? -1 : 1;
  if (a.notional !== b.notional) return a.notional > b.notional ? -1 : 1;
  return a.traderId < b.traderId ? -1 : a.traderId > b.traderId ? 1 : 0;
}

/**
 * Groups trades into bubbles: the bucket is {@link bucketStart} of the fill
 * time in whole seconds, the very function history rows snap with, so a
 * bubble sits on a candle. Within a bubble each trader's trades are summed
 * and the `topN` largest by size are kept. Bubbles come sorted by `t`, venue,
 * market, side, outcome.
 */
export function groupBubbles(trades: readonly BubbleTrade[], interval: HistoryInterval, topN: number): BubbleView[] {
  const groups = new Map<
    string,
    {
      head: Omit<BubbleView, 'traderCount' | 'trades' | 'size' | 'notional' | 'traders'>;
      traders: Map<string, TraderAcc>;
    }
  >();
  for (const tr of trades) {
    const t = bucketStart(Math.floor(tr.filledAt.getTime() / 1000), interval);
    const k = `${t}|${tr.venue}|${tr.marketId}|${tr.side}|${tr.outcome}`;
    let g = groups.get(k);
    if (!g) {
      g = {
        head: { t, venue: tr.venue, marketId: tr.marketId, side: tr.side, outcome: tr.outcome },
        traders: new Map(),
      };
      groups.set(k, g);
    }
    const acc = g.traders.get(tr.traderId) ?? { traderId: tr.traderId, size: 0n, notional: 0n, trades: 0 };
    acc.size += tr.size;
    acc.notional += mulMicros(tr.price, tr.size);
    acc.trades += 1;
    g.traders.set(tr.traderId, acc);
  }
  const bubbles = [...groups.values()].map(({ head, traders }): BubbleView => {
    const all = [...traders.values()].sort(byTradeSize);
    const sum = (f: (a: TraderAcc) => bigint) => all.reduce((s, a) => s + f(a), 0n);
    return {
      ...head,
      traderCount: all.length,
      trades: all.reduce((s, a) => s + a.trades, 0),
      size: toNumber(sum((a) => a.size)),
      notional: toNumber(sum((a) => a.notional)),
      traders: all.slice(0, topN).map((a) => ({
        traderId: a.traderId,
        size: toNumber(a.size),
        notional: toNumber(a.notional),
        avgPrice: toNumber(ratioMicros(a.notional, a.size)),
        trades: a.trades,
      })),
    };
  });
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return bubbles.sort(
    (a, b) =>
      a.t - b.t ||
      cmp(a.venue, b.venue) ||
      cmp(a.marketId, b.marketId) ||
      cmp(a.side, b.side) ||
      cmp(a.outcome, b.outcome),
  );
}
