import type { Venue } from '../../venues/venue.models';
import { unrealizedPnl } from './position.math';
import type { HoldingSource, PositionStatus } from './portfolio.limits';
import { ratioMicros } from '../../money/money';

/**
 * Portfolio arithmetic in integer micro-units, pure so it can be checked by
 * hand: marks per outcome, valuation, PnL totals, exposure buckets, category
 * win rates and the week the weekly rank covers.
 */

/** What the figures need of a position (service or wallet). */
export interface FigurePosition {
  source: HoldingSource;
  venue: Venue;
  /** Null when the catalog does not know the market. */
  category: string | null;
  status: PositionStatus;
  size: bigint;
  costBasis: bigint;
  realizedPnl: bigint;
  /** Null when unknown (on-chain positions). */
  fees: bigint | null;
  /** The outcome's mark; null when no price is known. */
  mark: bigint | null;
}

/** Value at the mark and unrealized PnL; both null for an unmarked position, zero when flat. */
export function valuation(p: Pick<FigurePosition, 'size' | 'costBasis' | 'mark'>): {
  marketValue: bigint | null;
  unrealized: bigint | null;
} {
  if (p.size === 0n) return { marketValue: 0n, unrealized: 0n };
  if (p.mark === null) return { marketValue: null, unrealized: null };
  const unrealized = unrealizedPnl({ size: p.size, costBasis: p.costBasis, realizedPnl: 0n, fees: 0n }, p.mark);
  return { marketValue: p.costBasis + unrealized, unrealized };
}

/** Open positions of one bucket (a venue, a category, a source). */
export interface ExposureFigures {
  key: string;
  positions: number;
  costBasis: bigint;
  /** Value at the marks; an unmarked position counts at its cost basis. */
  marketValue: bigint;
  /** Over the marked positions only. */
  unrealizedPnl: bigint;
  /** Share of the portfolio's market value, in millionths (0..1e6). */
  shareMillionths: bigint;
}

export interface SummaryFigures {
  realizedPnl: bigint;
  unrealizedPnl: bigint;
  /** Fees known (service positions). */
  fees: bigint;
  costBasis: bigint;
  marketValue: bigint;
  openPositions: number;
  closedPositions: number;
  /** Open positions without any mark: valued at cost, left out of unrealized PnL. */
  unmarkedPositions: number;
  byVenue: ExposureFigures[];
  byCategory: ExposureFigures[];
  bySource: (ExposureFigures & { realizedPnl: bigint; fees: bigint })[];
}

/** Category label of positions whose market the catalog does not know. */
export const UNKNOWN_CATEGORY = 'unknown';

interface Bucket {
  positions: number;
  costBasis: bigint;
  marketValue: bigint;
  unrealizedPnl: bigint;
  realizedPnl: bigint;
  fees: bigint;
}

const emptyBucket = (): Bucket => ({
  positions: 0,
  costBasis: 0n,
  marketValue: 0n,
  unrealizedPnl: 0n,
  realizedPnl: 0n,
  fees: 0n,
});

/** Buckets by value, largest first (ties by key). */
function buckets(map: Map<string, Bucket>, total: bigint): (ExposureFigures & { realizedPnl: bigint; fees: bigint })[] {
  return [...map]
    .map(([key, b]) => ({ key, ...b, shareMillionths: ratioMicros(b.marketValue, total) }))
    .sort((a, b) =>
      a.marketValue === b.marketValue ? a.key.localeCompare(b.key) : a.marketValue > b.marketValue ? -1 : 1,
    );
}

/**
 * PnL and exposure over every position: realized PnL and fees over all of
 * them, value, cost and unrealized PnL over the open ones.
 */
export function summarize(positions: readonly FigurePosition[]): SummaryFigures {
  const byVenue = new Map<string, Bucket>();
  const byCategory = new Map<string, Bucket>();
  const bySource = new Map<string, Bucket>();
  const total = emptyBucket();
  let open = 0;
  let closed = 0;
  let unmarked = 0;
  const into = (map: Map<string, Bucket>, key: string) => {
    let b = map.get(key);
    if (!b) map.set(key, (b = emptyBucket()));
    return b;
  };
  for (const p of positions) {
    const src = into(bySource, p.source);
    src.realizedPnl += p.realizedPnl;
    src.fees += p.fees ?? 0n;
    total.realizedPnl += p.realizedPnl;
    total.fees += p.fees ?? 0n;
    if (p.status !== 'open') {
      if (p.status === 'closed') closed += 1;
      continue;
    }
    open += 1;
    const v = valuation(p);
    if (v.marketValue === null) unmarked += 1;
    const value = v.marketValue ?? p.costBasis;
    const unrealized = v.unrealized ?? 0n;
    for (const b of [total, src, into(byVenue, p.venue), into(byCategory, p.category ?? UNKNOWN_CATEGORY)]) {
      b.positions += 1;
      b.costBasis += p.costBasis;
      b.marketValue += value;
      b.unrealizedPnl += unrealized;
    }
  }
  const strip = ({
    realizedPnl: _r,
    fees: _f,
    ...e
  }: ExposureFigures & { realizedPnl: bigint; fees: bigint }): ExposureFigures => e;
  return {
    realizedPnl: total.realizedPnl,
    unrealizedPnl: total.unrealizedPnl,
    fees: total.fees,
    costBasis: total.costBasis,
    marketValue: total.marketValue,
    openPositions: open,
    closedPositions: closed,
    unmarkedPositions: unmarked,
    byVenue: buckets(byVenue, total.marketValue).map(strip),
    byCategory: buckets(byCategory, total.marketValue).map(strip),
    bySource: buckets(bySource, total.marketValue),
  };
}

export interface CategoryFigures {
  category: string;
  /** Positions sold out (status closed). */
  closedPositions: number;
  /** Closed with a realized gain / loss (fees included); break-even closes are neither. */
  wins: number;
  losses: number;
  /** wins / (wins + losses), in millionths; null before any decided close. */
  winRateMillionths: bigint | null;
  /** Realized PnL of every position of the category, open ones included. */
  realizedPnl: bigint;
  openPositions: number;
  /** Open value at the marks (cost for unmarked), and its share of the portfolio. */
  exposure: bigint;
  exposureShareMillionths: bigint;
}

/** Win rate and exposure per category, largest exposure first, then most closes. */
export function categoryFigures(positions: readonly FigurePosition[]): CategoryFigures[] {
  const exposure = new Map(summarize(positions).byCategory.map((b) => [b.key, b]));
  const by = new Map<string, CategoryFigures>();
  for (const p of positions) {
    const category = p.category ?? UNKNOWN_CATEGORY;
    let c = by.get(category);
    if (!c) {
      const e = exposure.get(category);
      c = {
        category,
        closedPositions: 0,
        wins: 0,
        losses: 0,
        winRateMillionths: null,
        realizedPnl: 0n,
        openPositions: e?.positions ?? 0,
        exposure: e?.marketValue ?? 0n,
        exposureShareMillionths: e?.shareMillionths ?? 0n,
      };
      by.set(category, c);
    }
    c.realizedPnl += p.realizedPnl;
    if (p.status !== 'closed') continue;
    c.closedPositions += 1;
    if (p.realizedPnl > 0n) c.wins += 1;
    if (p.realizedPnl < 0n) c.losses += 1;
  }
  for (const c of by.values()) {
    const decided = BigInt(c.wins + c.losses);
    c.winRateMillionths = decided === 0n ? null : ratioMicros(BigInt(c.wins), decided);
  }
  return [...by.values()].sort(
    (a, b) =>
      (a.exposure === b.exposure ? 0 : a.exposure > b.exposure ? -1 : 1) ||
      b.closedPositions - a.closedPositions ||
      a.category.localeCompare(b.category),
  );
}

/** Start of the ISO week holding `at`: Monday 00:00 UTC. */
export function weekStart(at: Date): Date {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * 86_400_000);
}
