import type { PublicTrade } from '../venue.models';
import type { StreamMarket, VenueStream, VenueStreamEvent, VenueStreamHandlers } from '../venue-stream';
import { centsToPrice, contracts, decimalPrice } from './units';
import { venueBAuthHeaders, type VenueBCredentials } from './venue-b-signing';
import { VenueBStreamBook } from './venue-b-stream-book';
import { VenueSocket } from './venue-socket';

/**
 * venue_b's push channel: Kalshi's trade API v2 websocket. Commands are
 * `{"id":n,"cmd":"subscribe","params":{"channels":[…],"market_tickers":[…]}}`; the venue answers
 * `subscribed` (the subscription's `sid`), `ok` (an update), or `error`. Channels used:
 *
 * - `trade`, every market (public): each public trade, with the id its REST tape gives it;
 * - `ticker`, the followed markets (public): best bid and ask, last price;
 * - `orderbook_delta`, the followed markets, only with the key pair (the venue requires a signed
 *   handshake for it): `orderbook_snapshot` then `orderbook_delta`s.
 *
 * Every data message of a subscription carries `seq`, one more than the last (an `ok` answer uses
 * one too). A jump is a gap: for the book channel its subscription is dropped and made again, so
 * the venue sends fresh snapshots (its deltas are relative, and no HTTP book is sequenced with
 * them); for the trade channel the trades since are fetched over HTTP. The handshake is signed
 * (RSA-PSS over `timestamp + GET + path`) whenever the keys are set. Heartbeats are ping frames
 * both ways. Payloads are checked by hand: this is the hot path of every book change.
 */

/** Market tickers per subscribe command. */
const TICKERS_PER_COMMAND = 200;
const DP = 4;

export interface VenueBStreamOptions {
  url: string;
  pingMs: number;
  maxBackoffMs: number;
  credentials?: VenueBCredentials;
  random?: () => number;
}

interface Subscription {
  channel: string;
  lastSeq?: number;
}

type Json = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** A quoted price from its dollar string or cents; 0 and 1 (or absent) mean there is none. */
function quoted(dollars: unknown, cents: unknown): number | null | undefined {
  if (dollars === undefined && cents === undefined) return undefined;
  const d = num(dollars);
  const c = num(cents);
  const p = d !== undefined ? decimalPrice(d, DP) : c !== undefined ? centsToPrice(c) : null;
  return p === null || p <= 0 || p >= 1 ? null : p;
}

export class VenueBStream implements VenueStream {
  readonly venue = 'venue_b' as const;
  readonly coverage: { books: boolean; allTrades: boolean };
  private readonly socket: VenueSocket;
  private readonly tickers = new Set<string>();
  private readonly books = new Map<string, VenueBStreamBook>();
  private readonly subs = new Map<number, Subscription>();
  /** Subscriptions given up after a gap: what still arrives on them is ignored. */
  private readonly dropped = new Set<number>();
  /** Command id → the channel it subscribes (to name the `sid` of its `subscribed` answer). */
  private readonly pending = new Map<number, string>();
  private nextId = 1;
  private h: VenueStreamHandlers | null = null;
  private lastTradeAt = Date.now();

  constructor(o: VenueBStreamOptions) {
    this.coverage = { books: o.credentials !== undefined, allTrades: true };
    const path = new URL(o.url).pathname;
    this.socket = new VenueSocket({
      url: o.url,
      headers: o.credentials ? () => venueBAuthHeaders(o.credentials!, 'GET', path) : undefined,
      pingMs: o.pingMs,
      maxBackoffMs: o.maxBackoffMs,
      random: o.random,
      onOpen: () => this.subscribeAll(),
      onText: (text) => this.onText(text),
      onState: (state, reason) => {
        if (state === 'down') this.lost(reason ?? 'disconnected');
        this.h?.state(state, reason);
      },
      onHandlerError: (err) => this.h?.problem?.(`a frame could not be handled: ${(err as Error).message}`),
    });
  }

  start(handlers: VenueStreamHandlers): void {
    this.h = handlers;
    this.socket.start();
  }

  follow(markets: readonly StreamMarket[]): void {
    const wanted = new Set(markets.map((m) => m.venueMarketId));
    const added = [...wanted].filter((t) => !this.tickers.has(t));
    const removed = [...this.tickers].filter((t) => !wanted.has(t));
    for (const t of removed) {
      this.tickers.delete(t);
      this.books.delete(t);
    }
    for (const t of added) this.tickers.add(t);
    if (added.length && this.coverage.books)
      this.emit({ kind: 'stale', venueMarketIds: added, reason: 'newly followed' });
    if (!this.socket.open) return;
    for (const channel of this.marketChannels()) {
      const sid = this.sidOf(channel);
      if (sid === undefined) {
        // Not subscribed yet (no market was followed): subscribe with the new markets.
        this.subscribe(channel, added);
        continue;
      }
      for (const [action, list] of [
        ['add_markets', added],
        ['delete_markets', removed],
      ] as const) {
        for (let i = 0; i < list.length; i += TICKERS_PER_COMMAND) {
          const params = { sids: [sid], action, market_tickers: list.slice(i, i + TICKERS_PER_COMMAND) };
          this.socket.send(JSON.stringify({ id: this.nextId++, cmd: 'update_subscription', params }));
        }
      }
    }
  }

  stop(): Promise<void> {
    this.h = null;
    return this.socket.stop();
  }

  private marketChannels(): string[] {
    return this.coverage.books ? ['ticker', 'orderbook_delta'] : ['ticker'];
  }

  private sidOf(channel: string): number | undefined {
    for (const [sid, s] of this.subs) if (s.channel === channel) return sid;
    return undefined;
  }

  private subscribeAll(): void {
    this.subs.clear();
    this.dropped.clear();
    this.pending.clear();
    this.subscribe('trade', null);
    for (const channel of this.marketChannels()) this.subscribe(channel, [...this.tickers]);
  }

  /** Subscribes `channel` for `tickers` (null: every market), in commands of at most 200 tickers. */
  private subscribe(channel: string, tickers: string[] | null): void {
    if (tickers !== null && tickers.length === 0) return;
    const chunks: (string[] | null)[] = tickers === null ? [null] : [];
    for (let i = 0; tickers && i < tickers.length; i += TICKERS_PER_COMMAND)
      chunks.push(tickers.slice(i, i + TICKERS_PER_COMMAND));
    for (const chunk of chunks) {
      const id = this.nextId++;
      this.pending.set(id, channel);
      // The ticker channel sends each market's current quote first when asked to.
      const initial = channel === 'ticker' ? { send_initial_snapshot: true } : {};
      const params = chunk ? { channels: [channel], market_tickers: chunk, ...initial } : { channels: [channel] };
      this.socket.send(JSON.stringify({ id, cmd: 'subscribe', params }));
    }
  }

  /** The connection is gone: no book is vouched for, and trades may be missed from now. */
  private lost(reason: string): void {
    this.books.clear();
    this.subs.clear();
    if (this.coverage.books && this.tickers.size)
      this.emit({ kind: 'stale', venueMarketIds: [...this.tickers], reason });
  }

  private emit(e: VenueStreamEvent): void {
    this.h?.event(e);
  }

  private onText(text: string): void {
    let m: unknown;
    try {
      m = JSON.parse(text);
    } catch {
      this.h?.problem?.(`not JSON: ${text.slice(0, 60)}`);
      return;
    }
    if (typeof m !== 'object' || m === null || Array.isArray(m)) {
      this.h?.problem?.('a message that is not an object');
      return;
    }
    const problem = this.onMessage(m as Json);
    if (problem) this.h?.problem?.(problem);
  }

  private onMessage(m: Json): string | undefined {
    const type = str(m.type);
    const msg = (typeof m.msg === 'object' && m.msg !== null ? m.msg : {}) as Json;
    if (type === 'subscribed') {
      const sid = num(msg.sid) ?? num(m.sid);
      const channel = str(msg.channel) ?? this.pending.get(num(m.id) ?? -1);
      if (sid !== undefined && channel) this.subs.set(sid, this.subs.get(sid) ?? { channel });
      return undefined;
    }
    if (type === 'error') {
      const code = num(msg.code);
      return `venue error${code === undefined ? '' : ` ${code}`}: ${str(msg.msg) ?? 'unknown'}`;
    }
    if (!type) return 'a message without type';
    const sid = num(m.sid);
    if (sid !== undefined && this.dropped.has(sid)) return undefined;
    const sub = sid === undefined ? undefined : this.subs.get(sid);
    if (sid !== undefined && sub && !this.inSequence(sid, sub, num(m.seq))) return undefined;
    switch (type) {
      case 'ok':
      case 'unsubscribed':
        return undefined;
      case 'orderbook_snapshot':
        return this.onSnapshot(msg);
      case 'orderbook_delta':
        return this.onDelta(msg);
      case 'trade':
        return this.onTrade(msg);
      case 'ticker':
      case 'ticker_v2':
        return this.onTicker(msg);
      default:
        return undefined;
    }
  }

  /**
   * Whether a message of a subscription follows the one before it. A gap on the book channel
   * drops the subscription and makes it again (fresh snapshots); on the trade channel the trades
   * since the last one are fetched. Messages without `seq` (tickers) pass.
   */
  private inSequence(sid: number, sub: Subscription, seq: number | undefined): boolean {
    if (seq === undefined) return true;
    const expected = sub.lastSeq === undefined ? seq : sub.lastSeq + 1;
    sub.lastSeq = seq;
    if (seq === expected) return true;
    const reason = `sequence gap on ${sub.channel}: ${expected} expected, ${seq} received`;
    if (sub.channel === 'orderbook_delta') {
      this.subs.delete(sid);
      this.dropped.add(sid);
      this.books.clear();
      this.emit({ kind: 'stale', venueMarketIds: [...this.tickers], reason });
      this.socket.send(JSON.stringify({ id: this.nextId++, cmd: 'unsubscribe', params: { sids: [sid] } }));
      this.subscribe('orderbook_delta', [...this.tickers]);
      return false;
    }
    if (sub.channel === 'trade') this.emit({ kind: 'trade-gap', since: this.lastTradeAt, reason });
    return true;
  }

  private onSnapshot(msg: Json): string | undefined {
    const ticker = str(msg.market_ticker);
    if (!ticker) return 'orderbook_snapshot without market_ticker';
    const book = VenueBStreamBook.fromSnapshot(msg);
    if (!book) return 'orderbook_snapshot with a malformed level';
    if (!this.tickers.has(ticker)) return undefined;
    this.books.set(ticker, book);
    this.emit({ kind: 'book', venueMarketId: ticker, ...book.yesBook(), at: num(msg.ts_ms) ?? Date.now() });
    return undefined;
  }

  private onDelta(msg: Json): string | undefined {
    const ticker = str(msg.market_ticker);
    if (!ticker) return 'orderbook_delta without market_ticker';
    // A market without a snapshot since the last gap waits for it (the delta is relative).
    const book = this.books.get(ticker);
    if (!book) return undefined;
    const change = book.apply(msg);
    if (!change) return 'orderbook_delta without price, delta or side';
    this.emit({ kind: 'levels', venueMarketId: ticker, changes: [change], at: num(msg.ts_ms) ?? Date.now() });
    return undefined;
  }

  private onTrade(msg: Json): string | undefined {
    const id = str(msg.trade_id);
    const ticker = str(msg.market_ticker);
    const taker = msg.taker_side ?? msg.side;
    if (!id || !ticker || (taker !== 'yes' && taker !== 'no'))
      return 'trade without trade_id, market_ticker or taker_side';
    const price =
      taker === 'yes' ? quoted(msg.yes_price_dollars, msg.yes_price) : quoted(msg.no_price_dollars, msg.no_price);
    const size = num(msg.count_fp) ?? num(msg.count);
    if (!price || size === undefined) return 'trade without a price or count';
    const at = num(msg.ts_ms) ?? (num(msg.ts) ?? Date.now() / 1000) * 1000;
    this.lastTradeAt = Math.max(this.lastTradeAt, at);
    const trade: PublicTrade = {
      venue: this.venue,
      venueTradeId: id,
      venueMarketId: ticker,
      venueTraderId: null,
      // The public tape names the taker's side: the taker bought that outcome.
      side: 'buy',
      outcome: taker,
      price,
      size: contracts(size),
      filledAt: new Date(at),
    };
    this.emit({ kind: 'trade', trade });
    return undefined;
  }

  private onTicker(msg: Json): string | undefined {
    const ticker = str(msg.market_ticker);
    if (!ticker) return 'ticker without market_ticker';
    if (!this.tickers.has(ticker)) return undefined;
    const last = quoted(msg.price_dollars, msg.price);
    this.emit({
      kind: 'quote',
      venueMarketId: ticker,
      bestBid: quoted(msg.yes_bid_dollars, msg.yes_bid),
      bestAsk: quoted(msg.yes_ask_dollars, msg.yes_ask),
      // No trade yet is quoted as 0: that leaves the last price as it was.
      ...(last !== null && last !== undefined && { lastPrice: last }),
      at: num(msg.ts_ms) ?? (num(msg.ts) ?? Date.now() / 1000) * 1000,
    });
    return undefined;
  }
}
