import { z } from 'zod';
import type { HistoryInterval } from '../venue.models';

/**
 * venue_a's wire formats: the answers of Gamma (events and markets), the CLOB (books, price
 * history) and the Data API (trades, holders), validated.
 */

const num = z.union([z.number(), z.string()]).nullish();
/** Gamma encodes outcome lists as JSON inside a string. */
const jsonStringArray = z
  .union([z.string(), z.array(z.union([z.string(), z.number()]))])
  .nullish()
  .transform((v, ctx) => {
    if (v === null || v === undefined) return [];
    if (Array.isArray(v)) return v.map(String);
    try {
      const parsed: unknown = JSON.parse(v);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: 'expected a JSON array in a string' });
    return z.NEVER;
  });

const gammaMarket = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  question: z.string(),
  conditionId: z.string().min(1),
  slug: z.string().nullish(),
  description: z.string().nullish(),
  endDate: z.string().nullish(),
  groupItemTitle: z.string().nullish(),
  resolutionSource: z.string().nullish(),
  outcomes: jsonStringArray,
  outcomePrices: jsonStringArray,
  clobTokenIds: jsonStringArray,
  volume: num,
  volumeNum: num,
  volume24hr: num,
  liquidity: num,
  liquidityNum: num,
  openInterest: num,
  bestBid: num,
  bestAsk: num,
  lastTradePrice: num,
  orderPriceMinTickSize: num,
  active: z.boolean().nullish(),
  closed: z.boolean().nullish(),
  umaResolutionStatus: z.string().nullish(),
  icon: z.string().nullish(),
  image: z.string().nullish(),
  updatedAt: z.string().nullish(),
});
export type GammaMarket = z.infer<typeof gammaMarket>;

export const gammaEvent = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  title: z.string(),
  description: z.string().nullish(),
  category: z.string().nullish(),
  endDate: z.string().nullish(),
  resolutionSource: z.string().nullish(),
  updatedAt: z.string().nullish(),
  tags: z.array(z.object({ label: z.string().nullish(), slug: z.string().nullish() })).nullish(),
  markets: z.array(gammaMarket).nullish(),
});
export const gammaEvents = z.array(gammaEvent);
export const gammaMarkets = z.array(gammaMarket);

export const clobBook = z.object({
  timestamp: z.union([z.string(), z.number()]).nullish(),
  tick_size: z.union([z.string(), z.number()]).nullish(),
  bids: z.array(z.object({ price: z.union([z.string(), z.number()]), size: z.union([z.string(), z.number()]) })),
  asks: z.array(z.object({ price: z.union([z.string(), z.number()]), size: z.union([z.string(), z.number()]) })),
});
export const pricesHistory = z.object({
  history: z.array(z.object({ t: z.number(), p: z.union([z.number(), z.string()]) })),
});

const dataTrade = z.object({
  proxyWallet: z.string(),
  side: z.enum(['BUY', 'SELL']),
  asset: z.string(),
  conditionId: z.string(),
  size: z.union([z.number(), z.string()]),
  price: z.union([z.number(), z.string()]),
  timestamp: z.number(),
  outcomeIndex: z.number().nullish(),
  transactionHash: z.string(),
});
export type DataTrade = z.infer<typeof dataTrade>;
export const dataTrades = z.array(dataTrade);
export const dataHolders = z.array(
  z.object({
    token: z.string(),
    holders: z.array(
      z.object({
        proxyWallet: z.string(),
        amount: z.union([z.number(), z.string()]),
        outcomeIndex: z.number().nullish(),
      }),
    ),
  }),
);

/** Minutes per point of `/prices-history` (its `fidelity`) for each interval. */
export const FIDELITY_MIN: Record<HistoryInterval, number> = { '1m': 1, '5m': 5, '1h': 60, '1d': 1440, '1w': 10_080 };
