import type { Holder } from '../venue.models';
import { hashInts, toUnit } from './prng';
import type { SimMarket } from './sim-catalog';
import { priceAt, roundToTick } from './sim-price';
import { skewedWallet, tradeSize } from './sim-trades';

// Module-local aliases: global lookups are very slow inside vm contexts (jest),
// and these functions run millions of times per series or listing.
const { floor, max, min, round } = Math;

/**
 * venue_a's holders of a market: a deterministic set of positions (wallet,
 * outcome, size, entry price) aggregated per wallet and outcome, largest
 * first. Positions are opened at hashed times between listing and `nowSec`,
 * so entry prices follow the market's own price history.
 */
export function marketHolders(m: SimMarket, wallets: readonly string[], nowSec: number, limit: number): Holder[] {
  const count = 25 + (m.seed % 60);
  const end = max(m.listedAt, min(nowSec, m.tradingEnd - 1));
  const book = new Map<string, { wallet: string; outcome: 'yes' | 'no'; size: number; cost: number }>();
  for (let j = 0; j < count; j++) {
    const h = hashInts(m.seed, j, 31);
    const wallet = wallets[skewedWallet(toUnit(hashInts(h, 1)))];
    if (wallet === undefined) continue;
    const outcome = toUnit(hashInts(h, 2)) < 0.55 ? 'yes' : 'no';
    const size = tradeSize(m, toUnit(hashInts(h, 3)), 8);
    const at = m.listedAt + floor(toUnit(hashInts(h, 4)) * (end - m.listedAt));
    const yes = priceAt(m.process, at);
    const price = min(1 - m.tick, max(m.tick, outcome === 'yes' ? yes : 1 - yes));
    const key = `${wallet}|${outcome}`;
    const agg = book.get(key) ?? { wallet, outcome, size: 0, cost: 0 };
    agg.size += size;
    agg.cost += size * price;
    book.set(key, agg);
  }
  return [...book.values()]
    .map((a) => ({
      wallet: a.wallet,
      outcome: a.outcome,
      size: round(a.size * 100) / 100,
      avgPrice: roundToTick(a.cost / a.size, m.tick),
    }))
    .sort((x, y) => y.size - x.size || x.wallet.localeCompare(y.wallet) || x.outcome.localeCompare(y.outcome))
    .slice(0, max(0, floor(limit)));
}
