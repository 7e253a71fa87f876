import type { BookLevel, OutcomeSide, Venue } from '../../venues/venue.models';
import type { MarketView } from '../events/events.models';
import type { TradeEvent } from '../trades/trades.models';

/** The YES book, best level first on each side. */
export interface OrderBookView {
  venue: Venue;
  marketId: string;
  bids: BookLevel[];
  asks: BookLevel[];
  /** Best ask − best bid; null when a side is empty. */
  spread: number | null;
  /** Midpoint of the best levels; null when a side is empty. */
  mid: number | null;
  timestamp: Date;
  /** `stream`: the book a venue stream keeps (no venue call); `venue`: read from the venue (shared for a second). */
  source: 'stream' | 'venue';
  /** The market's sequence number of the book (its last market update included); null when read from the venue. */
  seq: number | null;
}

/** A public trade as the screens show it (the streamed trade's shape, with a Date). */
export type MarketTradeView = Omit<TradeEvent, 'filledAt'> & { filledAt: Date };

/**
 * An offset page of public trades, newest first. The venues do not count their trades, so `hasMore` replaces a
 * total.
 */
export interface TradePageView {
  data: MarketTradeView[];
  limit: number;
  offset: number;
  hasMore: boolean;
}

export interface HolderView {
  /** Wallet address (venue_a identities). */
  wallet: string;
  outcome: OutcomeSide;
  size: number;
  avgPrice: number | null;
}

/** A market's largest holders; venue_b publishes no identities (`supported` false, with the reason). */
export interface HoldersView {
  venue: Venue;
  marketId: string;
  supported: boolean;
  reason: string | null;
  limit: number;
  data: HolderView[];
}

/** The detail screen's holder figures, over the largest holders the venue lists. */
export interface HolderSummaryView {
  supported: boolean;
  reason: string | null;
  /** Holders counted (the venue's largest, up to the holders limit). */
  holders: number;
  yesHolders: number;
  noHolders: number;
  yesSize: number;
  noSize: number;
  /** Share of the counted size held by the `top` holders, 0..1. */
  topShare: number | null;
  top: HolderView[];
}

/** The same question on the other venue. */
export interface CounterpartView {
  market: MarketView;
  /** Title similarity of the pair, 0..1. */
  similarity: number;
  /** This market's YES price minus the counterpart's; null when either has no price. */
  priceDifference: number | null;
}
