import { outcomeTokenId, type OrderFilled } from '../../../src/modules/webhooks';

export const hex = (n: number, len: number) => n.toString(16).padStart(len, '0');

export interface FillSpec {
  /** Index into `markets`. */
  m: number;
  side: 'buy' | 'sell';
  outcome?: 'yes' | 'no';
  maker?: string;
  ts?: number;
  usdc?: number;
  tokens?: number;
}

/**
 * Makes OrderFilled records on known venue_a markets: each call a new record
 * (a fresh serial, so a fresh fill time unless `ts` is given).
 */
export function fillFactory(markets: () => readonly { venueMarketId: string }[], firstSerial = 0) {
  let serial = firstSerial;
  return (o: FillSpec): OrderFilled => {
    serial += 1;
    const token = outcomeTokenId(markets()[o.m].venueMarketId, o.outcome ?? 'yes');
    const usdc = String(o.usdc ?? 420_000);
    const tokens = String(o.tokens ?? 1_000_000);
    const buy = o.side === 'buy';
    return {
      id: `0x${hex(serial, 64)}_0x${hex(serial + 1, 64)}`,
      transactionHash: `0x${hex(serial, 64)}`,
      timestamp: String(o.ts ?? 1_760_000_000 + serial),
      orderHash: `0x${hex(serial + 1, 64)}`,
      maker: o.maker ?? `0x${'Ab'.repeat(20)}`,
      taker: `0x${hex(7, 40)}`,
      makerAssetId: buy ? '0' : token,
      takerAssetId: buy ? token : '0',
      makerAmountFilled: buy ? usdc : tokens,
      takerAmountFilled: buy ? tokens : usdc,
      fee: '0',
    };
  };
}

/** A deterministic shuffle (a seeded LCG), so a failing order can be replayed. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  let s = seed >>> 0;
  const rand = () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 4_294_967_296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
