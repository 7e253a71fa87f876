import type { BookLevel, PublicTrade } from '../venue.models';
import type {
  LevelChange,
  StreamMarket,
  StreamState,
  VenueStream,
  VenueStreamEvent,
  VenueStreamHandlers,
} from '../venue-stream';
import { bookSide, contracts, decimalPrice } from './units';
import { venueATradeId } from './venue-a.client';
import { VenueSocket } from './venue-socket';

/**
 * venue_a's push channel: the CLOB websocket's market channel (Polymarket), subscribed by
 * outcome token. On subscribing, the venue sends each token's whole book (`book`), then
 * `price_change` (the new size at a price level; a batch may span several tokens), `tick_size_change`,
 * `last_trade_price` (a match: price, size, taker side, transaction hash) and, with
 * `custom_feature_enabled`, `best_bid_ask`. A frame is one message or an array of them; the
 * heartbeat is a text `PING` answered by `PONG`. Both tokens of a market are followed (a
 * trade's print arrives on the token traded); the YES token's book is the market's book.
 *
 * Tokens are spread over connections of at most {@link ASSETS_PER_CONNECTION}; a market added or
 * removed later is (un)subscribed on its open connection with the channel's `operation` message.
 * The payloads are checked by hand, not with zod: this is the hot path of every book change.
 */

/** Tokens per connection: the market channel's bound on one subscription, kept to with room. */
export const ASSETS_PER_CONNECTION = 500;
/** Price decimals kept when the market's tick is not known (exact for every tick the venue uses). */
const PRICE_DP = 4;

export interface VenueAStreamOptions {
  url: string;
  pingMs: number;
  maxBackoffMs: number;
  random?: () => number;
  /** Tokens per connection (tests shrink it). */
  assetsPerConnection?: number;
}

interface TokenRef {
  market: string;
  outcome: 'yes' | 'no';
}

interface Shard {
  socket: VenueSocket;
  /** Condition id → its two tokens. */
  markets: Map<string, { yes: string; no: string }>;
  state: StreamState;
}

type Json = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

export class VenueAStream implements VenueStream {
  readonly venue = 'venue_a' as const;
  readonly coverage = { books: true, allTrades: false };
  private readonly shards: Shard[] = [];
  private readonly tokens = new Map<string, TokenRef>();
  private h: VenueStreamHandlers | null = null;
  private lastState: StreamState | null = null;

  constructor(private readonly o: VenueAStreamOptions) {}

  /** Connections open as markets are followed ({@link follow}); with none to follow the stream is up and idle. */
  start(handlers: VenueStreamHandlers): void {
    this.h = handlers;
  }

  follow(markets: readonly StreamMarket[]): void {
    const wanted = new Map<string, { yes: string; no: string }>();
    for (const m of markets) if (m.tokens?.yes && m.tokens.no) wanted.set(m.venueMarketId, m.tokens);
    for (const shard of this.shards) {
      const gone = [...shard.markets.keys()].filter((id) => !wanted.has(id));
      if (gone.length === 0) continue;
      const assets = gone.flatMap((id) => this.forget(shard, id));
      shard.socket.send(JSON.stringify({ assets_ids: assets, operation: 'unsubscribe' }));
    }
    const held = new Set(this.shards.flatMap((s) => [...s.markets.keys()]));
    const added = [...wanted].filter(([id]) => !held.has(id));
    const perShard = Math.max(2, this.o.assetsPerConnection ?? ASSETS_PER_CONNECTION);
    for (const [id, tokens] of added) {
      let shard = this.shards.find((s) => s.markets.size * 2 + 2 <= perShard);
      const fresh = !shard;
      shard ??= this.openShard();
      shard.markets.set(id, tokens);
      this.tokens.set(tokens.yes, { market: id, outcome: 'yes' });
      this.tokens.set(tokens.no, { market: id, outcome: 'no' });
      // An open connection takes the new tokens now; a connecting one subscribes to all on open.
      if (!fresh) shard.socket.send(JSON.stringify({ assets_ids: [tokens.yes, tokens.no], operation: 'subscribe' }));
    }
    if (added.length) this.emit({ kind: 'stale', venueMarketIds: added.map(([id]) => id), reason: 'newly followed' });
    for (const shard of this.shards.filter((s) => s.markets.size === 0)) void this.closeShard(shard);
    this.reportState();
  }

  async stop(): Promise<void> {
    const shards = this.shards.splice(0);
    this.h = null;
    await Promise.all(shards.map((s) => s.socket.stop()));
  }

  private openShard(): Shard {
    const shard: Shard = { markets: new Map(), state: 'connecting', socket: undefined as unknown as VenueSocket };
    shard.socket = new VenueSocket({
      url: this.o.url,
      pingMs: this.o.pingMs,
      pingText: 'PING',
      maxBackoffMs: this.o.maxBackoffMs,
      random: this.o.random,
      onOpen: (send) => {
        const assets = [...shard.markets.values()].flatMap((t) => [t.yes, t.no]);
        // Every (re)subscription is answered with each token's whole book: until then the books are not vouched for.
        this.emit({ kind: 'stale', venueMarketIds: [...shard.markets.keys()], reason: 'connected' });
        send(JSON.stringify({ assets_ids: assets, type: 'market', custom_feature_enabled: true }));
      },
      onText: (text) => this.onText(text),
      onState: (state, reason) => {
        shard.state = state;
        if (state === 'down') {
          this.emit({ kind: 'stale', venueMarketIds: [...shard.markets.keys()], reason: reason ?? 'disconnected' });
        }
        this.reportState(reason);
      },
      onHandlerError: (err) => this.h?.problem?.(`a frame could not be handled: ${(err as Error).message}`),
    });
    this.shards.push(shard);
    shard.socket.start();
    return shard;
  }

  private async closeShard(shard: Shard): Promise<void> {
    const i = this.shards.indexOf(shard);
    if (i >= 0) this.shards.splice(i, 1);
    await shard.socket.stop();
  }

  private forget(shard: Shard, id: string): string[] {
    const t = shard.markets.get(id);
    shard.markets.delete(id);
    if (!t) return [];
    this.tokens.delete(t.yes);
    this.tokens.delete(t.no);
    return [t.yes, t.no];
  }

  /** Up when every connection is; down when one is down (its markets are stale); connecting otherwise. */
  private reportState(reason?: string): void {
    const states = this.shards.map((s) => s.state);
    const state: StreamState = states.includes('down') ? 'down' : states.every((s) => s === 'up') ? 'up' : 'connecting';
    if (state === this.lastState && state !== 'down') return;
    this.lastState = state;
    this.h?.state(state, reason);
  }

  private emit(e: VenueStreamEvent): void {
    this.h?.event(e);
  }

  private onText(text: string): void {
    if (text === 'PONG' || text === 'PING') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.h?.problem?.(`not JSON: ${text.slice(0, 60)}`);
      return;
    }
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    for (const m of messages) {
      if (typeof m !== 'object' || m === null) {
        this.h?.problem?.('a message that is not an object');
        continue;
      }
      const problem = this.onMessage(m as Json);
      if (problem) this.h?.problem?.(problem);
    }
  }

  /** Handles one message; returns what is wrong with it, if anything. */
  private onMessage(m: Json): string | undefined {
    const type = m.event_type;
    const at = num(m.timestamp) ?? Date.now();
    switch (type) {
      case 'book':
        return this.onBook(m, at);
      case 'price_change':
        return this.onPriceChange(m, at);
      case 'tick_size_change': {
        const ref = this.tokens.get(str(m.asset_id) ?? '');
        const tick = num(m.new_tick_size);
        if (tick === undefined) return 'tick_size_change without new_tick_size';
        if (ref?.outcome === 'yes') this.emit({ kind: 'tick', venueMarketId: ref.market, tickSize: tick, at });
        return undefined;
      }
      case 'last_trade_price':
        return this.onTrade(m, at);
      case 'best_bid_ask': {
        const ref = this.tokens.get(str(m.asset_id) ?? '');
        if (ref?.outcome !== 'yes') return undefined;
        const bid = decimalPrice(num(m.best_bid) ?? null, PRICE_DP);
        const ask = decimalPrice(num(m.best_ask) ?? null, PRICE_DP);
        this.emit({
          kind: 'quote',
          venueMarketId: ref.market,
          bestBid: bid || null,
          bestAsk: ask && ask < 1 ? ask : null,
          at,
        });
        return undefined;
      }
      case undefined:
        return 'a message without event_type';
      default:
        // new_market, market_resolved and anything newer: nothing here follows them.
        return undefined;
    }
  }

  private onBook(m: Json, at: number): string | undefined {
    const ref = this.tokens.get(str(m.asset_id) ?? '');
    if (!Array.isArray(m.bids) || !Array.isArray(m.asks)) return 'book without bids and asks';
    if (ref?.outcome !== 'yes') return undefined;
    const bids = levelsOf(m.bids);
    const asks = levelsOf(m.asks);
    if (!bids || !asks) return 'book with a malformed level';
    this.emit({
      kind: 'book',
      venueMarketId: ref.market,
      bids: bookSide(bids, 'bids'),
      asks: bookSide(asks, 'asks'),
      at,
      tickSize: num(m.tick_size),
    });
    return undefined;
  }

  private onPriceChange(m: Json, at: number): string | undefined {
    // The current shape: `price_changes`, each naming its token; the earlier one: one token, `changes`.
    const entries = Array.isArray(m.price_changes)
      ? (m.price_changes as unknown[])
      : Array.isArray(m.changes)
        ? (m.changes as unknown[]).map((c) => (typeof c === 'object' && c ? { asset_id: m.asset_id, ...c } : c))
        : null;
    if (!entries) return 'price_change without price_changes';
    const byMarket = new Map<string, LevelChange[]>();
    for (const e of entries) {
      if (typeof e !== 'object' || e === null) return 'price_change with a malformed entry';
      const c = e as Json;
      const price = decimalPrice(num(c.price) ?? null, PRICE_DP);
      const size = num(c.size);
      const side = c.side === 'BUY' ? 'bids' : c.side === 'SELL' ? 'asks' : null;
      if (price === null || size === undefined || !side) return 'price_change with a malformed entry';
      const ref = this.tokens.get(str(c.asset_id) ?? '');
      if (ref?.outcome !== 'yes') continue;
      const list = byMarket.get(ref.market) ?? [];
      list.push({ side, price, size: Math.max(0, contracts(size)) });
      byMarket.set(ref.market, list);
    }
    for (const [venueMarketId, changes] of byMarket) this.emit({ kind: 'levels', venueMarketId, changes, at });
    return undefined;
  }

  private onTrade(m: Json, at: number): string | undefined {
    const asset = str(m.asset_id);
    const price = decimalPrice(num(m.price) ?? null, PRICE_DP);
    const size = num(m.size);
    const side = m.side === 'BUY' ? 'buy' : m.side === 'SELL' ? 'sell' : null;
    if (!asset || price === null || size === undefined || !side) return 'last_trade_price without price, size or side';
    const ref = this.tokens.get(asset);
    if (!ref) return undefined;
    const tx = str(m.transaction_hash);
    if (!tx) {
      // Without its transaction the print cannot be matched with the polled tape: only the price is used.
      const yes = ref.outcome === 'yes' ? price : decimalPrice(1 - price, PRICE_DP);
      this.emit({ kind: 'quote', venueMarketId: ref.market, lastPrice: yes, at });
      return undefined;
    }
    const trade: PublicTrade = {
      venue: this.venue,
      venueTradeId: venueATradeId(tx, asset, m.side as string),
      venueMarketId: ref.market,
      // The market channel names no wallet: the polled tape fills the trader in later.
      venueTraderId: null,
      side,
      outcome: ref.outcome,
      price,
      size: contracts(size),
      filledAt: new Date(at),
    };
    this.emit({ kind: 'trade', trade });
    return undefined;
  }
}

/** `[{price, size}]` with numeric strings, or null when a level is malformed. */
function levelsOf(rows: unknown[]): BookLevel[] | null {
  const out: BookLevel[] = [];
  for (const r of rows) {
    if (typeof r !== 'object' || r === null) return null;
    const price = decimalPrice(num((r as Json).price) ?? null, PRICE_DP);
    const size = num((r as Json).size);
    if (price === null || size === undefined) return null;
    out.push({ price, size: contracts(size) });
  }
  return out;
}
