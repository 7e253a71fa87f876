import type { PublicTrade } from '../venue.models';
import { hashInts, toUnit } from './prng';
import type { SimMarket } from './sim-catalog';
import type { WorldKeys } from './sim-keys';
import { takerTrade } from './sim-trades';

/** Live trades kept per market so later `getPublicTrades` calls include them. */
const LIVE_KEEP_PER_MARKET = 1_000;
/** Upper bound on trades emitted by one timer tick (e.g. after the process was paused). */
const MAX_BACKLOG = 5_000;
const TWO_32 = 4_294_967_296;

/** Recent live trades per market, newest first. */
export class LiveTradeLog {
  private readonly byMarket = new Map<string, PublicTrade[]>();

  record(trade: PublicTrade): void {
    const key = `${trade.venue}|${trade.venueMarketId}`;
    const list = this.byMarket.get(key) ?? [];
    list.unshift(trade);
    if (list.length > LIVE_KEEP_PER_MARKET) list.length = LIVE_KEEP_PER_MARKET;
    this.byMarket.set(key, list);
  }

  /** Newest first; do not mutate. */
  newest(venue: string, venueMarketId: string): readonly PublicTrade[] {
    return this.byMarket.get(`${venue}|${venueMarketId}`) ?? [];
  }
}

/**
 * Emits live public trades at a fixed total rate over the active markets of
 * both venues. Time is cut into slots of 1/rate seconds since the epoch and
 * slot k's trade (market, side, size, trader, id) is a pure function of the
 * world's keys, the rate and k, so several processes running the same world
 * emit identical trades with identical ids and a store can deduplicate them.
 * A trade's `filledAt` is its slot time; the generator wakes at each slot's
 * time, so delivery follows it by a timer's lag (a few ms). Prices come from the market's price process at that time;
 * live trades do not move prices or consume book depth.
 */
/** The shortest wait between two ticks (ms): a bound on wake-ups at high rates. */
const MIN_TICK_MS = 5;

export class LiveTradeGenerator {
  private timer: NodeJS.Timeout | null = null;
  private rate = 0;
  private lastSlot = 0;
  private readonly seed: number;

  constructor(
    private readonly keys: WorldKeys,
    private readonly markets: readonly SimMarket[],
    private readonly wallets: readonly string[],
    private readonly now: () => number,
    private readonly deliver: (trade: PublicTrade) => void,
  ) {
    this.seed = keys.liveSeed();
  }

  /** (Re)starts at `ratePerSecond` trades/s in total; 0 or less stops. */
  start(ratePerSecond: number): void {
    this.stop();
    if (!(ratePerSecond > 0) || !Number.isFinite(ratePerSecond) || this.markets.length === 0) return;
    this.rate = ratePerSecond;
    this.lastSlot = Math.floor((this.now() / 1000) * ratePerSecond);
    this.schedule(ratePerSecond);
  }

  /**
   * Wakes at the next slot's time (not on a fixed period), so a trade goes out at its own
   * `filledAt` rather than up to a period later; at most every MIN_TICK_MS at high rates
   * (each tick emits every slot that has come), at least once a second.
   */
  private schedule(rate: number): void {
    const nextMs = ((this.lastSlot + 1) / rate) * 1000;
    const delay = Math.min(1_000, Math.max(MIN_TICK_MS, Math.ceil(nextMs - this.now())));
    const timer = setTimeout(() => {
      if (this.timer !== timer) return;
      this.tick();
      // Unless a listener stopped or restarted the generator meanwhile.
      if (this.timer === timer && this.rate === rate) this.schedule(rate);
    }, delay);
    this.timer = timer;
    // Never keep the process alive just to simulate trades.
    timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.rate = 0;
  }

  get running(): boolean {
    return this.timer !== null;
  }

  private tick(): void {
    const rate = this.rate;
    const slot = Math.floor((this.now() / 1000) * rate);
    let k = Math.max(this.lastSlot, slot - MAX_BACKLOG);
    this.lastSlot = slot;
    while (++k <= slot && this.rate === rate) {
      const trade = this.tradeAt(k, rate);
      if (trade) this.deliver(trade);
    }
  }

  /** The trade of slot `k` at `rate`, or null when its market is not trading then. */
  tradeAt(k: number, rate: number): PublicTrade | null {
    const rateKey = Math.round(rate * 1000);
    const h = hashInts(this.seed, rateKey, k % TWO_32, Math.floor(k / TWO_32));
    const m = this.markets[h % this.markets.length];
    const tMs = Math.round((k / rate) * 1000);
    const t = tMs / 1000;
    if (!m || t < m.listedAt || t >= m.tradingEnd) return null;
    const u: [number, number, number, number] = [
      toUnit(hashInts(h, 1)),
      toUnit(hashInts(h, 2)),
      toUnit(hashInts(h, 3)),
      toUnit(hashInts(h, 4)),
    ];
    const core = takerTrade(m, t, u);
    const key = `live|${rateKey}|${k}`;
    return {
      venue: m.venue,
      venueTradeId: m.venue === 'venue_a' ? `0x${this.keys.hex(key, 64)}` : this.keys.uuid(key),
      venueMarketId: m.venueMarketId,
      venueTraderId: m.venue === 'venue_a' ? (this.wallets[core.walletIdx] ?? null) : null,
      side: core.side,
      outcome: core.outcome,
      price: core.price,
      size: core.size,
      filledAt: new Date(tMs),
    };
  }
}
