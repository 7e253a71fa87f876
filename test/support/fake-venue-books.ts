import {
  marketByToken,
  syntheticClobBook,
  syntheticKalshiBook,
  type ClobBookFixture,
  type FakeVenueData,
} from './fake-venues';

/**
 * The books the fake venues hold, read and changed in the HTTP fake's data (so the websockets'
 * fake and the HTTP fake agree): a market's book is pinned there on first use, then changed in
 * place. venue_a's as the CLOB lists it (bids ascending, asks descending, decimal strings);
 * venue_b's as YES and NO bids by price in hundredths of a cent, stored as `orderbook_fp`.
 */

type Json = Record<string, unknown>;
/** venue_b's bids by side, in hundredths of a cent. */
export interface KalshiSides {
  yes: Map<number, number>;
  no: Map<number, number>;
}
export interface Level {
  price: number;
  size: number;
}

const fmt = (n: number, dp: number) => n.toFixed(dp);
const num = (v: unknown) => Number(v);

/** venue_a's YES and NO token ids of a market. */
export function tokensOf(data: FakeVenueData, conditionId: string): [string, string] {
  const m = data.venueA.events.flatMap((e) => e.markets).find((x) => x.conditionId === conditionId);
  if (!m) throw new Error(`fake venue_a has no market ${conditionId}`);
  return JSON.parse(m.clobTokenIds) as [string, string];
}

/** venue_a's book of a token as the CLOB keeps it. */
export function clobBook(data: FakeVenueData, token: string): ClobBookFixture {
  const found = marketByToken(data, token);
  if (!found) throw new Error(`fake venue_a has no token ${token}`);
  data.venueA.books[token] ??= syntheticClobBook(found.m, token, found.index);
  return data.venueA.books[token];
}

/** venue_a's level of a book at a new size (0 removes it), kept in the CLOB's order. */
export function setClobLevel(book: ClobBookFixture, side: 'bids' | 'asks', price: number, size: number): void {
  const rows = side === 'bids' ? book.bids : book.asks;
  const kept = rows.filter((r) => num(r.price) !== price);
  if (size > 0) kept.push({ price: String(price), size: String(size) });
  kept.sort((x, y) => (side === 'bids' ? num(x.price) - num(y.price) : num(y.price) - num(x.price)));
  if (side === 'bids') book.bids = kept;
  else book.asks = kept;
}

/** venue_a's YES book, best first. */
export function clobYesBook(book: ClobBookFixture): { bids: Level[]; asks: Level[] } {
  const levels = (rows: { price: string; size: string }[]) =>
    rows.map((r) => ({ price: num(r.price), size: num(r.size) }));
  return {
    bids: levels(book.bids).sort((x, y) => y.price - x.price),
    asks: levels(book.asks).sort((x, y) => x.price - y.price),
  };
}

/** venue_b's bids of a market (from its fixture book, or the one the HTTP fake synthesises). */
export function kalshiBook(data: FakeVenueData, ticker: string): KalshiSides {
  let stored = data.venueB.orderbooks[ticker] as Json | undefined;
  if (!stored) {
    const m = data.venueB.events.flatMap((e) => e.markets).find((x) => x.ticker === ticker);
    if (!m) throw new Error(`fake venue_b has no market ${ticker}`);
    stored = syntheticKalshiBook(m);
  }
  const ob = (stored.orderbook_fp ?? stored.orderbook) as Json;
  const side = (dollars: unknown, cents: unknown) =>
    new Map<number, number>(
      ((dollars ?? cents ?? []) as unknown[][]).map(([p, c]) => [
        Math.round((dollars ? num(p) : num(p) / 100) * 10_000),
        num(c),
      ]),
    );
  const book = { yes: side(ob.yes_dollars, ob.yes), no: side(ob.no_dollars, ob.no) };
  pinKalshiBook(data, ticker, book);
  return book;
}

/** Stores venue_b's bids as the HTTP fake's `orderbook_fp` answer. */
export function pinKalshiBook(data: FakeVenueData, ticker: string, book: KalshiSides): void {
  data.venueB.orderbooks[ticker] = {
    orderbook_fp: { yes_dollars: kalshiRows(book.yes), no_dollars: kalshiRows(book.no) },
  };
}

/** One side as `[["0.4500", "10.00"], …]`, by price ascending. */
export function kalshiRows(m: Map<number, number>): [string, string][] {
  return [...m].sort((a, b) => a[0] - b[0]).map(([u, c]) => [fmt(u / 10_000, 4), fmt(c, 2)]);
}

/** venue_b's YES book, best first: YES bids, and NO bids turned into YES asks. */
export function kalshiYesBook(b: KalshiSides): { bids: Level[]; asks: Level[] } {
  return {
    bids: [...b.yes].sort((x, y) => y[0] - x[0]).map(([u, size]) => ({ price: u / 10_000, size })),
    asks: [...b.no].sort((x, y) => y[0] - x[0]).map(([u, size]) => ({ price: (10_000 - u) / 10_000, size })),
  };
}
