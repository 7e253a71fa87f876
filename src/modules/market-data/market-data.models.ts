import type { Market } from '../../db/generated/client';
import { round6 } from '../../money/money';
import type { MarketFigures, MarketStatus, Venue } from '../../venues/venue.models';
import {
  decimalToNumber,
  marketFigures,
  outcomeTokensOf,
  type CoreEventFields,
  type OutcomeTokenIds,
} from '../events/events.models';

/** Prices as the market-data surface writes them: 0..1, mid and spread only when both sides quote. */
export interface QuoteView {
  bestBid: number | null;
  bestAsk: number | null;
  midPrice: number | null;
  spread: number | null;
}

/** A venue market, every field of the interface document's Market resource. */
export interface MarketDataMarketView extends QuoteView, MarketFigures {
  venue: Venue;
  venueMarketId: string;
  title: string;
  status: MarketStatus;
  venueEventId: string;
  coreEventId: string;
  description: string | null;
  marketSlug: string | null;
  outcomes: string[];
  endDateIso: Date | null;
  outcomeTokenIds: OutcomeTokenIds | null;
}

/** A market inside a comparison detail: identity, quote and volume. */
export interface MarketSummaryView extends QuoteView {
  venue: Venue;
  venueMarketId: string;
  title: string;
  volume: number | null;
  volume24h: number | null;
}

/** An item of the events list: the fields every view of a core event shows. */
export type MarketDataEventView = CoreEventFields;

export interface CategoryCountView {
  category: string;
  count: number;
}

/** Bid, ask, their midpoint and spread; null prices stay null. */
export function quoteOf(bid: number | null, ask: number | null): QuoteView {
  const both = bid !== null && ask !== null;
  return {
    bestBid: bid,
    bestAsk: ask,
    midPrice: both ? round6((bid + ask) / 2) : null,
    spread: both ? round6(ask - bid) : null,
  };
}

export function toMarketDataMarket(m: Market): MarketDataMarketView {
  return {
    venue: m.venue,
    venueMarketId: m.venueMarketId,
    title: m.title,
    status: m.status,
    venueEventId: m.venueEventId,
    coreEventId: m.coreEventId,
    description: m.description,
    marketSlug: m.slug,
    outcomes: m.outcomes,
    endDateIso: m.endDate,
    ...quoteOf(decimalToNumber(m.bestBid), decimalToNumber(m.bestAsk)),
    ...marketFigures(m),
    outcomeTokenIds: outcomeTokensOf(m),
  };
}

export function toMarketSummary(m: Market): MarketSummaryView {
  return {
    venue: m.venue,
    venueMarketId: m.venueMarketId,
    title: m.title,
    ...quoteOf(decimalToNumber(m.bestBid), decimalToNumber(m.bestAsk)),
    volume: decimalToNumber(m.volume),
    volume24h: decimalToNumber(m.volume24h),
  };
}
