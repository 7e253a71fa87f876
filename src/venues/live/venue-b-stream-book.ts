import type { BookLevel } from '../venue.models';
import type { LevelChange } from '../venue-stream';
import { centsToPrice, contracts, decimalPrice } from './units';

/**
 * venue_b's book as its websocket keeps it: resting bids on YES and on NO, by price in
 * hundredths of a cent (the dollar strings' four decimals), changed by relative deltas (`delta_fp`,
 * fractional counts). Turned into the YES book: a NO bid at q is a YES ask at 1 − q.
 */

/** Hundredths of a cent per dollar: the dollar strings carry four decimals. */
const UNITS = 10_000;

type Level = [unknown, unknown];

/** A level's price in units, from a dollar string (`"0.0100"`) or, for the cents form, cents. */
function unitsOf(raw: unknown, cents: boolean): number | null {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(n)) return null;
  const price = cents ? centsToPrice(n) : decimalPrice(n, 4);
  if (price === null || price <= 0 || price >= 1) return null;
  return Math.round(price * UNITS);
}

function countOf(raw: unknown): number | null {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw !== '' ? Number(raw) : NaN;
  return Number.isFinite(n) ? contracts(n) : null;
}

/** A side of a snapshot: `[[price, count], …]` in dollars (with fractional counts or not) or cents. */
function sideOf(rows: unknown, cents: boolean): Map<number, number> | null {
  const out = new Map<number, number>();
  if (rows === undefined || rows === null) return out;
  if (!Array.isArray(rows)) return null;
  for (const r of rows) {
    if (!Array.isArray(r) || r.length < 2) return null;
    const [p, c] = r as Level;
    const units = unitsOf(p, cents);
    const count = countOf(c);
    if (units === null || count === null) return null;
    if (count > 0) out.set(units, contracts((out.get(units) ?? 0) + count));
  }
  return out;
}

export class VenueBStreamBook {
  private constructor(
    private readonly yes: Map<number, number>,
    private readonly no: Map<number, number>,
  ) {}

  /**
   * A book from an `orderbook_snapshot` message: the fixed-point dollar sides (`yes_dollars_fp`),
   * else the dollar sides (`yes_dollars`), else cents (`yes`); a side left out is empty (a market
   * nobody bids on). Null when a level is malformed.
   */
  static fromSnapshot(msg: Record<string, unknown>): VenueBStreamBook | null {
    const pick = (side: 'yes' | 'no') =>
      msg[`${side}_dollars_fp`] !== undefined
        ? sideOf(msg[`${side}_dollars_fp`], false)
        : msg[`${side}_dollars`] !== undefined
          ? sideOf(msg[`${side}_dollars`], false)
          : sideOf(msg[side], true);
    const yes = pick('yes');
    const no = pick('no');
    return yes && no ? new VenueBStreamBook(yes, no) : null;
  }

  /**
   * Applies an `orderbook_delta` (price as `price_dollars` or cents `price`, count change as
   * `delta_fp` or `delta`): the YES book's level at its new size, or null when the message is malformed.
   */
  apply(msg: Record<string, unknown>): LevelChange | null {
    const units = msg.price_dollars !== undefined ? unitsOf(msg.price_dollars, false) : unitsOf(msg.price, true);
    const delta = countOf(msg.delta_fp !== undefined ? msg.delta_fp : msg.delta);
    const side = msg.side === 'yes' ? this.yes : msg.side === 'no' ? this.no : null;
    if (units === null || delta === null || !side) return null;
    const size = Math.max(0, contracts((side.get(units) ?? 0) + delta));
    if (size > 0) side.set(units, size);
    else side.delete(units);
    return side === this.yes
      ? { side: 'bids', price: units / UNITS, size }
      : { side: 'asks', price: (UNITS - units) / UNITS, size };
  }

  /** The YES book, best first: YES bids high to low, NO bids turned into asks low to high. */
  yesBook(): { bids: BookLevel[]; asks: BookLevel[] } {
    const bids = [...this.yes].sort((a, b) => b[0] - a[0]).map(([u, size]) => ({ price: u / UNITS, size }));
    const asks = [...this.no].sort((a, b) => b[0] - a[0]).map(([u, size]) => ({ price: (UNITS - u) / UNITS, size }));
    return { bids, asks };
  }
}
