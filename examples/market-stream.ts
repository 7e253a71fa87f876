/**
 * An EventSource consumer of `/stream/markets/{venue}/{marketId}` that keeps a market's live book:
 * `event: snapshot` replaces what it holds (the top `depth` levels of each side), `event: delta`
 * sets the levels that changed (size 0: gone from the top `depth`), `event: stale` empties it
 * until the next snapshot. Every message carries the market's `seq`, one more than the previous;
 * the server sends a fresh snapshot whenever the client would otherwise miss one, so a jump here
 * means something is wrong and the consumer reconnects. The `eventsource` package reconnects by
 * itself after a dropped connection, sending `Last-Event-ID`: the server then goes on where the
 * client stopped, or starts it over with a snapshot when changes were missed.
 *
 *   node -r ./scripts/register.js examples/market-stream.ts [BASE_URL] VENUE MARKET_ID [DEPTH]
 */
import { EventSource } from 'eventsource';

export interface Level {
  price: number;
  size: number;
}

/** One message of a market stream (`event:` is its `kind`; `id:` its `id`). */
export interface MarketUpdateMessage {
  id: string;
  venue: 'venue_a' | 'venue_b';
  marketId: string;
  seq: number;
  kind: 'snapshot' | 'delta' | 'stale';
  depth: 'book' | 'quotes';
  bids: Level[];
  asks: Level[];
  bestBid: number | null;
  bestAsk: number | null;
  lastPrice: number | null;
  tickSize: number | null;
  trades: { id: string; side: string; outcome: string; price: number; size: number; filledAt: string }[];
  at: string;
  receivedAt: string;
  reason: string | null;
}

/** The book as the consumer holds it: bids highest first, asks lowest first. */
export interface HeldBook {
  seq: number;
  live: boolean;
  bids: Level[];
  asks: Level[];
  lastPrice: number | null;
}

export interface MarketFollower {
  readonly book: HeldBook;
  close(): void;
}

/** Applies one message to the held book; false when its seq does not follow (resubscribe). */
export function applyUpdate(book: HeldBook, m: MarketUpdateMessage): boolean {
  if (m.kind !== 'snapshot' && book.seq !== 0 && m.seq !== book.seq + 1) return false;
  book.seq = m.seq;
  book.lastPrice = m.lastPrice;
  if (m.kind === 'stale') {
    book.live = false;
    book.bids = [];
    book.asks = [];
    return true;
  }
  const side = (held: Level[], changes: Level[], desc: boolean) => {
    const levels = new Map(m.kind === 'snapshot' ? [] : held.map((l) => [l.price, l.size]));
    for (const l of changes) {
      if (l.size > 0) levels.set(l.price, l.size);
      else levels.delete(l.price);
    }
    return [...levels]
      .map(([price, size]) => ({ price, size }))
      .sort((a, b) => (desc ? b.price - a.price : a.price - b.price));
  };
  book.bids = side(book.bids, m.bids, true);
  book.asks = side(book.asks, m.asks, false);
  if (m.kind === 'snapshot') book.live = true;
  return true;
}

/** Follows one market's book; `onBook` after each message applied. */
export function followMarket(
  baseUrl: string,
  venue: 'venue_a' | 'venue_b',
  marketId: string,
  opts: { depth?: number; onBook(book: HeldBook, m: MarketUpdateMessage): void; onError?(message: string): void },
): MarketFollower {
  const book: HeldBook = { seq: 0, live: false, bids: [], asks: [], lastPrice: null };
  const qs = opts.depth !== undefined ? `?depth=${opts.depth}` : '';
  const url = `${baseUrl}/stream/markets/${venue}/${encodeURIComponent(marketId)}${qs}`;
  let source: EventSource;
  const open = () => {
    source = new EventSource(url);
    for (const kind of ['snapshot', 'delta', 'stale']) {
      source.addEventListener(kind, (message) => {
        const m = JSON.parse(String(message.data)) as MarketUpdateMessage;
        if (applyUpdate(book, m)) opts.onBook(book, m);
        else {
          // Out of order: start over without Last-Event-ID (a fresh connection gets a snapshot).
          source.close();
          book.seq = 0;
          open();
        }
      });
    }
    source.addEventListener('error', (err) => opts.onError?.(err.message ?? 'stream error'));
  };
  open();
  return { book, close: () => source.close() };
}

/** One line per message: the best levels and the last price. */
export function describeBook(venue: string, marketId: string, book: HeldBook): string {
  if (!book.live) return `${venue}/${marketId} #${book.seq}: not live`;
  const lvl = (l: Level | undefined) => (l ? `${l.price} x ${l.size}` : '-');
  const quotes = `bid ${lvl(book.bids[0])} / ask ${lvl(book.asks[0])}, last ${book.lastPrice ?? '-'}`;
  return `${venue}/${marketId} #${book.seq}: ${quotes}`;
}

if (require.main === module) {
  const [baseUrl = 'http://127.0.0.1:4000', venue, marketId, depth] = process.argv.slice(2);
  if ((venue !== 'venue_a' && venue !== 'venue_b') || !marketId) {
    process.stderr.write('usage: market-stream.ts [BASE_URL] venue_a|venue_b MARKET_ID [DEPTH]\n');
    process.exit(2);
  }
  const follower = followMarket(baseUrl, venue, marketId, {
    depth: depth === undefined ? undefined : Number(depth),
    onBook: (book) => process.stdout.write(`${describeBook(venue, marketId, book)}\n`),
    onError: (message) => process.stderr.write(`stream: ${message} (retrying)\n`),
  });
  process.once('SIGINT', () => follower.close());
}
