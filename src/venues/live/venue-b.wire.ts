import { z } from 'zod';
import type { Candle, HistoryInterval, MarketStatus, PublicTrade, VenueEvent, VenueMarket } from '../venue.models';
import { categoryOf, centsToPrice, contracts, decimalPrice } from './units';

/**
 * venue_b's wire formats (Kalshi's trade API v2 answers, validated) and how they become the
 * venue models: prices as exact 0..1 numbers from cents and/or four-decimal dollar strings.
 */

/** Dollar strings carry four decimals (sub-penny ticks). */
export const DP = 4;
export const TICK = 0.0001;

const cents = z.number().nullish();
const dollars = z.string().nullish();

const kalshiMarket = z.object({
  ticker: z.string().min(1),
  event_ticker: z.string(),
  title: z.string().nullish(),
  subtitle: z.string().nullish(),
  yes_sub_title: z.string().nullish(),
  status: z.string(),
  close_time: z.string().nullish(),
  yes_bid: cents,
  yes_ask: cents,
  last_price: cents,
  yes_bid_dollars: dollars,
  yes_ask_dollars: dollars,
  last_price_dollars: dollars,
  volume: z.number().nullish(),
  volume_fp: dollars,
  volume_24h: z.number().nullish(),
  volume_24h_fp: dollars,
  open_interest: z.number().nullish(),
  open_interest_fp: dollars,
  liquidity: z.number().nullish(),
  liquidity_dollars: dollars,
  rules_primary: z.string().nullish(),
  rules_secondary: z.string().nullish(),
  strike_type: z.string().nullish(),
  floor_strike: z.number().nullish(),
  cap_strike: z.number().nullish(),
  /** A multivariate (combo) market's legs: one question each. */
  mve_selected_legs: z.array(z.unknown()).nullish(),
});
type KalshiMarket = z.infer<typeof kalshiMarket>;

const kalshiEvent = z.object({
  event_ticker: z.string().min(1),
  series_ticker: z.string(),
  title: z.string(),
  sub_title: z.string().nullish(),
  category: z.string().nullish(),
  strike_date: z.string().nullish(),
  markets: z.array(kalshiMarket).nullish(),
});
type KalshiEvent = z.infer<typeof kalshiEvent>;
export const eventsPage = z.object({ events: z.array(kalshiEvent), cursor: z.string().nullish() });
export const oneEvent = z.object({ event: kalshiEvent.omit({ markets: true }) });
export const oneMarket = z.object({ market: kalshiMarket });

export const level = z.tuple([z.union([z.number(), z.string()]), z.union([z.number(), z.string()])]);
const bookSides = z.object({
  yes: z.array(level).nullish(),
  no: z.array(level).nullish(),
  yes_dollars: z.array(level).nullish(),
  no_dollars: z.array(level).nullish(),
});
export const orderbookAnswer = z.object({ orderbook: bookSides.nullish(), orderbook_fp: bookSides.nullish() });

const ohlc = z
  .object({
    open: cents,
    high: cents,
    low: cents,
    close: cents,
    open_dollars: dollars,
    high_dollars: dollars,
    low_dollars: dollars,
    close_dollars: dollars,
  })
  .nullish();
export const candlesAnswer = z.object({
  candlesticks: z.array(
    z.object({
      end_period_ts: z.number(),
      yes_bid: ohlc,
      yes_ask: ohlc,
      price: ohlc,
      volume: z.number().nullish(),
      volume_fp: dollars,
    }),
  ),
});

const kalshiTrade = z.object({
  trade_id: z.string().min(1),
  ticker: z.string(),
  count: z.number().nullish(),
  count_fp: dollars,
  yes_price: cents,
  no_price: cents,
  yes_price_dollars: dollars,
  no_price_dollars: dollars,
  taker_side: z.enum(['yes', 'no']),
  created_time: z.string(),
});
export type KalshiTrade = z.infer<typeof kalshiTrade>;
export const tradesPage = z.object({ trades: z.array(kalshiTrade), cursor: z.string().nullish() });

/** An order's status and fill figures, as the venue answers a placement and lists the member's orders. */
export const venueBOrderFigures = z.object({
  order_id: z.string(),
  status: z.string(),
  fill_count: z.number().nullish(),
  fill_count_fp: dollars,
  taker_fill_cost: z.number().nullish(),
  taker_fill_cost_dollars: dollars,
  maker_fill_cost: z.number().nullish(),
  maker_fill_cost_dollars: dollars,
});

export const orderAnswer = z.object({ order: venueBOrderFigures });

/** A price from its dollar string when present, else from cents; 0 and 100 cents mean "none" in quotes. */
export function priceOf(d: string | null | undefined, c: number | null | undefined): number | null {
  const p =
    d !== null && d !== undefined && d !== ''
      ? decimalPrice(d, DP)
      : c === null || c === undefined
        ? null
        : centsToPrice(c);
  return p === null || p <= 0 || p >= 1 ? null : p;
}

/** Candlestick periods the venue serves (minutes), and how many make one of each interval. */
export const PERIODS: Record<HistoryInterval, { period: number; per: number }> = {
  '1m': { period: 1, per: 1 },
  '5m': { period: 1, per: 5 },
  '1h': { period: 60, per: 1 },
  '1d': { period: 1440, per: 1 },
  '1w': { period: 1440, per: 7 },
};

/** A public trade of the venue's tape. */
export function toVenueBTrade(t: KalshiTrade): PublicTrade {
  const price =
    t.taker_side === 'yes' ? priceOf(t.yes_price_dollars, t.yes_price) : priceOf(t.no_price_dollars, t.no_price);
  return {
    venue: 'venue_b',
    venueTradeId: t.trade_id,
    venueMarketId: t.ticker,
    venueTraderId: null,
    // The public tape names the taker's side: the taker bought that outcome.
    side: 'buy',
    outcome: t.taker_side,
    price: price ?? 0,
    size: t.count_fp ? contracts(t.count_fp) : (t.count ?? 0),
    filledAt: new Date(t.created_time),
  };
}

/**
 * An event with its markets, as of `now`; `remember` is told each market's series (candlesticks are
 * addressed by series).
 */
export function toVenueBEvent(
  e: KalshiEvent,
  now: Date,
  remember: (ticker: string, series: string) => void,
): VenueEvent {
  const markets = (e.markets ?? []).map((m) => {
    remember(m.ticker, e.series_ticker);
    return toMarket(e, m, now);
  });
  const closes = markets.map((m) => m.endDate?.getTime() ?? 0).filter((t) => t > 0);
  const strike = e.strike_date ? Date.parse(e.strike_date) : NaN;
  const single = e.markets?.length === 1 ? e.markets[0].rules_primary : null;
  return {
    venue: 'venue_b',
    venueEventId: e.event_ticker,
    title: e.title,
    description: single ?? e.sub_title ?? '',
    category: categoryOf([e.category, e.series_ticker]),
    closeTime: Number.isFinite(strike) ? new Date(strike) : closes.length ? new Date(Math.max(...closes)) : null,
    updatedAt: now,
    markets,
    subtitle: e.sub_title || null,
  };
}

function toMarket(e: KalshiEvent, m: KalshiMarket, now: Date): VenueMarket {
  const status = statusOf(m.status);
  const close = m.close_time ? Date.parse(m.close_time) : NaN;
  const dollarsOrCents = (d: string | null | undefined, c: number | null | undefined): number | null =>
    d ? Number(d) : c === null || c === undefined ? null : c / 100;
  return {
    venue: 'venue_b',
    venueMarketId: m.ticker,
    venueEventId: e.event_ticker,
    title: m.title ?? e.title,
    description: m.rules_primary ?? null,
    slug: null,
    status,
    outcomes: ['Yes', 'No'],
    endDate: Number.isFinite(close) ? new Date(close) : null,
    bestBid: status === 'active' ? priceOf(m.yes_bid_dollars, m.yes_bid) : null,
    bestAsk: status === 'active' ? priceOf(m.yes_ask_dollars, m.yes_ask) : null,
    lastPrice: priceOf(m.last_price_dollars, m.last_price),
    volume: m.volume_fp ? contracts(m.volume_fp) : (m.volume ?? null),
    volume24h: m.volume_24h_fp ? contracts(m.volume_24h_fp) : (m.volume_24h ?? null),
    openInterest: m.open_interest_fp ? contracts(m.open_interest_fp) : (m.open_interest ?? null),
    liquidity: dollarsOrCents(m.liquidity_dollars, m.liquidity),
    iconUrl: null,
    imageUrl: null,
    updatedAt: now,
    terms: {
      outcomeLabel: m.yes_sub_title || m.subtitle || null,
      strike: m.strike_type ? { type: m.strike_type, floor: m.floor_strike ?? null, cap: m.cap_strike ?? null } : null,
      rulesSecondary: m.rules_secondary || null,
      legs: m.mve_selected_legs?.length || 1,
    },
  };
}

function statusOf(s: string): MarketStatus {
  if (s === 'active' || s === 'open') return 'active';
  if (s === 'settled' || s === 'determined' || s === 'finalized') return 'resolved';
  return 'closed';
}

/** Candles merged into buckets of `bucketS` seconds (5-minute candles from 1-minute ones, weeks from days). */
export function aggregate(candles: readonly Candle[], bucketS: number): Candle[] {
  const out: Candle[] = [];
  for (const c of candles) {
    const t = Math.floor(c.t / bucketS) * bucketS;
    const last = out[out.length - 1];
    if (last && last.t === t) {
      last.h = Math.max(last.h, c.h);
      last.l = Math.min(last.l, c.l);
      last.c = c.c;
      last.v += c.v;
    } else {
      out.push({ ...c, t });
    }
  }
  return out;
}
