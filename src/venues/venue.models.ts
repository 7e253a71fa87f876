/**
 * What the venues speak, whatever is behind them: the wire values (venues,
 * sides, statuses) and the shapes of events, markets, books, price history and
 * trades. Prices are on the 0..1 scale (1 = one dollar); sizes are contracts.
 */
export const VENUES = ['venue_a', 'venue_b'] as const;
export type Venue = (typeof VENUES)[number];

export const SOURCE_TYPES = ['matched', 'venue_a_only', 'venue_b_only'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export const TRADE_SIDES = ['buy', 'sell'] as const;
export type Side = (typeof TRADE_SIDES)[number];

export const OUTCOME_SIDES = ['yes', 'no'] as const;
export type OutcomeSide = (typeof OUTCOME_SIDES)[number];

export const MARKET_STATUSES = ['active', 'closed', 'resolved'] as const;
export type MarketStatus = (typeof MARKET_STATUSES)[number];

export const HISTORY_INTERVALS = ['1m', '5m', '1h', '1d', '1w'] as const;
export type HistoryInterval = (typeof HISTORY_INTERVALS)[number];

/**
 * A market's activity figures and pictures as its venue publishes them: every view of a
 * market that shows them (the catalog's and the market-data surface's) shows these.
 */
export interface MarketFigures {
  volume: number | null;
  volume24h: number | null;
  openInterest: number | null;
  liquidity: number | null;
  iconUrl: string | null;
  imageUrl: string | null;
}

export interface VenueMarket extends MarketFigures {
  venue: Venue;
  venueMarketId: string;
  venueEventId: string;
  title: string;
  description: string | null;
  slug: string | null;
  status: MarketStatus;
  outcomes: string[];
  endDate: Date | null;
  bestBid: number | null;
  bestAsk: number | null;
  lastPrice: number | null;
  updatedAt: Date;
  /** The outcome tokens' ids where the venue trades outcomes as tokens (venue_a's CLOB token ids). */
  outcomeTokenIds?: { yes: string; no: string };
  /** What the venue states decides the market, beyond its title and rules (read by cross-venue matching). */
  terms?: MarketTerms;
}

/**
 * The parts of a market's listing that decide its outcome, as its venue publishes them: the
 * outcome's short label, the strike, the stated resolution source and secondary rules, and the
 * legs of a multi-leg (combo) market. Each is absent where the venue does not state it.
 */
export interface MarketTerms {
  /** The outcome's label within its event (venue_a's `groupItemTitle`, venue_b's `yes_sub_title`). */
  outcomeLabel?: string | null;
  /** The strike (venue_b's `strike_type`, `floor_strike`, `cap_strike`). */
  strike?: { type: string | null; floor: number | null; cap: number | null } | null;
  /** The resolution source the venue names (venue_a's `resolutionSource`). */
  resolutionSource?: string | null;
  /** Secondary rules (venue_b's `rules_secondary`): settlement source and edge cases. */
  rulesSecondary?: string | null;
  /** Questions combined in one market (venue_b's multivariate `mve_selected_legs`); 1 or absent for one question. */
  legs?: number;
}

export interface VenueEvent {
  venue: Venue;
  venueEventId: string;
  title: string;
  description: string;
  category: string;
  closeTime: Date | null;
  updatedAt: Date;
  markets: VenueMarket[];
  /** The venue's subtitle of the event (venue_b's `sub_title`, e.g. "In Mar 2027"), where it has one. */
  subtitle?: string | null;
  /** The resolution source the venue names for the whole event (venue_a's `resolutionSource`). */
  resolutionSource?: string | null;
}

export interface BookLevel {
  price: number;
  size: number;
}

/**
 * The YES outcome's book, best level first on each side. venue_b's native book is
 * YES bids and NO bids; its client turns a NO bid at q into a YES ask at 1 − q.
 */
export interface OrderBook {
  venue: Venue;
  venueMarketId: string;
  bids: BookLevel[];
  asks: BookLevel[];
  timestamp: Date;
}

/** venue_a publishes price points; venue_b publishes OHLCV candles. */
export interface PricePoint {
  t: number; // unix seconds
  p: number;
}
export interface Candle {
  t: number; // unix seconds, bucket start
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}
export type PriceHistory = { kind: 'points'; points: PricePoint[] } | { kind: 'ohlcv'; candles: Candle[] };

export interface PriceHistoryQuery {
  interval: HistoryInterval;
  from: number; // unix seconds
  to: number; // unix seconds
}

export interface PublicTrade {
  venue: Venue;
  venueTradeId: string;
  venueMarketId: string;
  /** A wallet address on venue_a; null on venue_b, whose public feed has no identities. */
  venueTraderId: string | null;
  side: Side;
  outcome: OutcomeSide;
  price: number;
  size: number;
  filledAt: Date;
}

export interface Holder {
  wallet: string;
  outcome: OutcomeSide;
  size: number;
  avgPrice: number | null;
}
export type HoldersResult = { supported: true; holders: Holder[] } | { supported: false; reason: string; holders: [] };
