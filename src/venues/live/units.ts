import { roundToTick } from '../sim/sim-price';
import type { BookLevel } from '../venue.models';

/**
 * Exact unit conversions for the venues' wire values. Prices travel as cents
 * (integers), dollar strings ("0.6100") or decimal strings ("0.615"); they are
 * turned into 0..1 numbers by going through integer units of the venue's tick,
 * so `1 − q` and string parsing never leave float residue (0.6699999…).
 */

/** Decimal places of a tick size such as 0.01 or 0.001 (at most 6). */
export function tickDecimals(tick: number): number {
  if (!(tick > 0)) return 2;
  return Math.min(6, Math.max(0, Math.round(-Math.log10(tick))));
}

/** A price rounded to `dp` decimals, or null when it is not a finite number. */
export function decimalPrice(raw: string | number | null | undefined, dp: number): number | null {
  if (raw === null || raw === undefined || raw === '') return null;
  const n = typeof raw === 'number' ? raw : Number(raw);
  return Number.isFinite(n) ? roundToTick(n, 10 ** -dp) : null;
}

/** A cents integer (1..99) as a 0..1 price. */
export function centsToPrice(cents: number): number {
  return roundToTick(cents / 100, 0.0001);
}

/** A decimal count ("13.00", 13) as a number of contracts. */
export function contracts(raw: string | number): number {
  const n = typeof raw === 'number' ? raw : Number(raw);
  return Number.isFinite(n) ? Math.round(n * 100) / 100 : 0;
}

/** Levels merged per price (a venue may list one price twice) and sorted best first. */
export function bookSide(levels: readonly BookLevel[], side: 'bids' | 'asks', depth?: number): BookLevel[] {
  const byPrice = new Map<number, number>();
  for (const l of levels) {
    if (!(l.size > 0) || !(l.price > 0 && l.price < 1)) continue;
    byPrice.set(l.price, Math.round(((byPrice.get(l.price) ?? 0) + l.size) * 100) / 100);
  }
  const out = [...byPrice].map(([price, size]) => ({ price, size }));
  out.sort((a, b) => (side === 'bids' ? b.price - a.price : a.price - b.price));
  return depth === undefined ? out : out.slice(0, Math.max(0, Math.floor(depth)));
}

/** The categories the catalog uses (the simulated world's), from a venue's own labels. */
const CATEGORY_WORDS: [RegExp, string][] = [
  [/politic|election|government|congress|president|geopolit|world/i, 'politics'],
  [/sport|soccer|football|basketball|baseball|nba|nfl|tennis|golf|hockey|f1|racing/i, 'sports'],
  [/crypto|bitcoin|ethereum|btc|eth\b/i, 'crypto'],
  [/econom|fed\b|fed rates|inflation|rates|jobs|gdp|financ|business|stocks|companies/i, 'economics'],
  [/tech|\bai\b|artificial/i, 'tech'],
  [/science|climate|weather|health|space/i, 'science'],
  [/culture|entertainment|music|movie|film|celebrit|award|mentions|social/i, 'culture'],
];

/** The first of `labels` that names a known category; `other` when none does. */
export function categoryOf(labels: readonly (string | null | undefined)[]): string {
  for (const label of labels) {
    if (!label) continue;
    for (const [re, category] of CATEGORY_WORDS) if (re.test(label)) return category;
  }
  return 'other';
}
