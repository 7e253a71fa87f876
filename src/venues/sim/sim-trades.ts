import type { OutcomeSide, PublicTrade, Side } from '../venue.models';
import { hashInts, toUnit } from './prng';
import type { SimMarket } from './sim-catalog';
import type { WorldKeys } from './sim-keys';
import { priceAt, roundToTick } from './sim-price';

// Module-local aliases: global lookups are very slow inside vm contexts (jest),
// and these functions run millions of times per series or listing.
const { exp, floor, max, min, round } = Math;

/** Number of deterministic venue_a wallets; traders recur across markets. */
export const WALLET_POOL_SIZE = 200;
const HOUR_S = 3_600;
const MAX_TRADES_PER_HOUR = 400;
/** How far back trade scans go; older trades exist but are not served. */
const MAX_SCAN_HOURS = 24 * 400;
/** Mean of exp(3(u − 0.5)) for uniform u; divides it out so sizes average `meanSize`. */
const LOGNORMAL_MEAN = (exp(1.5) - exp(-1.5)) / 3;

/** A historical trade before ids and wallet strings are attached (cheap to generate in bulk). */
export interface TradeCore {
  t: number;
  hour: number;
  i: number;
  side: Side;
  outcome: OutcomeSide;
  /** Price in the traded outcome's terms. */
  price: number;
  /** The equivalent YES price. */
  yesPrice: number;
  size: number;
  walletIdx: number;
}

/** `WALLET_POOL_SIZE` lowercase 0x addresses derived from the world's keys. */
export function walletPool(keys: WorldKeys): string[] {
  return Array.from({ length: WALLET_POOL_SIZE }, (_, i) => `0x${keys.hex(`wallet|${i}`, 40)}`);
}

/** A pool index skewed towards low indices, so a few wallets are very active (whales). */
export function skewedWallet(u: number): number {
  return min(WALLET_POOL_SIZE - 1, floor(WALLET_POOL_SIZE * u ** 2.2));
}

/** A trade size with mean `mean`, heavy right tail; whole contracts on venue_b. */
export function tradeSize(m: SimMarket, u: number, scale = 1): number {
  const raw = (m.meanSize * scale * exp(3 * (u - 0.5))) / LOGNORMAL_MEAN;
  return m.venue === 'venue_b' ? max(1, round(raw)) : max(0.1, round(raw * 100) / 100);
}

/** Trading activity multiplier for an hour, mean 1. */
export function hourActivity(m: SimMarket, hour: number): number {
  return 0.25 + 1.5 * toUnit(hashInts(m.seed, hour, 19));
}

/** Expected traded contracts per second around `t`; feeds candle volumes. */
export function volumeRate(m: SimMarket, t: number): number {
  return (m.tradesPerHour * m.meanSize * hourActivity(m, floor(t / HOUR_S))) / HOUR_S;
}

/**
 * Builds the trade a taker makes at `t` from four uniforms: outcome, side,
 * size and trader. The taker pays a little over the mid when buying YES (or
 * selling NO) and a little under when selling YES (or buying NO).
 */
export function takerTrade(
  m: SimMarket,
  t: number,
  u: readonly [number, number, number, number],
): Omit<TradeCore, 'hour' | 'i' | 't'> {
  const outcome: OutcomeSide = u[0] < 0.6 ? 'yes' : 'no';
  const side: Side = u[1] < 0.55 ? 'buy' : 'sell';
  const half = m.tick * (m.venue === 'venue_a' ? 3 : 1);
  const liftsYes = (outcome === 'yes') === (side === 'buy');
  const mid = priceAt(m.process, t);
  const yesPrice = min(1 - m.tick, max(m.tick, roundToTick(mid + (liftsYes ? half : -half), m.tick)));
  const price = outcome === 'yes' ? yesPrice : roundToTick(1 - yesPrice, m.tick);
  return { side, outcome, price, yesPrice, size: tradeSize(m, u[2]), walletIdx: skewedWallet(u[3]) };
}

/** How many trades happen in an hour: the rate, rounded up or down at random. */
function tradesInHour(m: SimMarket, hour: number): number {
  const lambda = m.tradesPerHour * hourActivity(m, hour);
  const base = floor(lambda);
  return min(MAX_TRADES_PER_HOUR, base + (toUnit(hashInts(m.seed, hour, 21)) < lambda - base ? 1 : 0));
}

/** The market's public trades within one clock hour, oldest first. */
export function hourTrades(m: SimMarket, hour: number): TradeCore[] {
  const n = tradesInHour(m, hour);
  const out: TradeCore[] = [];
  for (let i = 0; i < n; i++) {
    const h = hashInts(m.seed, hour, i, 23);
    const t = hour * HOUR_S + floor(toUnit(h) * HOUR_S);
    if (t < m.listedAt || t >= m.tradingEnd) continue;
    const u: [number, number, number, number] = [
      toUnit(hashInts(h, 1)),
      toUnit(hashInts(h, 2)),
      toUnit(hashInts(h, 3)),
      toUnit(hashInts(h, 4)),
    ];
    out.push({ t, hour, i, ...takerTrade(m, t, u) });
  }
  return out.sort((x, y) => x.t - y.t || x.i - y.i);
}

/**
 * Walks trades backwards from `nowSec`, newest first, until `visit` returns
 * false or history runs out.
 */
export function walkTradesBack(m: SimMarket, nowSec: number, visit: (t: TradeCore) => boolean): void {
  const endHour = floor(min(nowSec, m.tradingEnd - 1) / HOUR_S);
  const startHour = max(floor(m.listedAt / HOUR_S), endHour - MAX_SCAN_HOURS);
  for (let hour = endHour; hour >= startHour; hour--) {
    const trades = hourTrades(m, hour);
    for (let k = trades.length - 1; k >= 0; k--) {
      const tr = trades[k];
      if (tr.t > nowSec) continue;
      if (!visit(tr)) return;
    }
  }
}

/** The newest `count` historical trades at `nowSec`, newest first. */
export function recentTrades(m: SimMarket, nowSec: number, count: number): TradeCore[] {
  const out: TradeCore[] = [];
  if (count <= 0) return out;
  walkTradesBack(m, nowSec, (t) => {
    out.push(t);
    return out.length < count;
  });
  return out;
}

/** Attaches the venue-shaped ids (from the world's keys) and the trader identity (venue_a only). */
export function toPublicTrade(
  m: SimMarket,
  core: TradeCore,
  world: { keys: WorldKeys; wallets: readonly string[] },
): PublicTrade {
  return {
    venue: m.venue,
    venueTradeId: world.keys.tradeId(m, core.hour, core.i),
    venueMarketId: m.venueMarketId,
    venueTraderId: m.venue === 'venue_a' ? (world.wallets[core.walletIdx] ?? null) : null,
    side: core.side,
    outcome: core.outcome,
    price: core.price,
    size: core.size,
    filledAt: new Date(core.t * 1000),
  };
}

/**
 * Sum of trade sizes in the 24 hours up to `nowSec`, and the newest trade's
 * YES price. Only sizes are drawn for the window (prices are the costly part),
 * with the same draws `hourTrades` uses, so the figure matches the trade list.
 */
export function tradeStats(m: SimMarket, nowSec: number): { volume24h: number; lastYesPrice: number | null } {
  const last = recentTrades(m, nowSec, 1)[0];
  const from = nowSec - 86_400;
  const to = min(nowSec, m.tradingEnd - 1);
  let volume24h = 0;
  for (let hour = floor(from / HOUR_S); hour <= floor(to / HOUR_S); hour++) {
    const n = tradesInHour(m, hour);
    for (let i = 0; i < n; i++) {
      const h = hashInts(m.seed, hour, i, 23);
      const t = hour * HOUR_S + floor(toUnit(h) * HOUR_S);
      if (t <= from || t > to || t < m.listedAt) continue;
      volume24h += tradeSize(m, toUnit(hashInts(h, 3)));
    }
  }
  return { volume24h: round(volume24h * 100) / 100, lastYesPrice: last ? last.yesPrice : null };
}
