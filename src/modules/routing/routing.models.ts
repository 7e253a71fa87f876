import type { RouteIntent } from '../../db/generated/client';
import type { OutcomeSide, Side, Venue } from '../../venues/venue.models';
import { MICROS_PER_UNIT, microsToNumber } from '../../money';
import type { Quote } from './order-book.math';

/**
 * How a venue fared in a cost rundown: `ok` (every open market priced),
 * `partial` (some books unreadable: those markets are left out and named),
 * `unavailable` (no book readable), `no_open_markets`.
 */
export const COST_VENUE_STATUSES = ['ok', 'partial', 'unavailable', 'no_open_markets'] as const;
export type CostVenueStatus = (typeof COST_VENUE_STATUSES)[number];

export interface CostVenueView {
  venue: Venue;
  status: CostVenueStatus;
  /** Open markets of the event on this venue (priced or not). */
  markets: number;
  /** The venue's market ids whose book could not be read: left out of `markets` and `best`. */
  failedMarkets: string[];
  /** Why markets are missing from the figures (the first failure), else null. */
  reason: string | null;
}

/** One open market with its cost for each outcome. */
export interface CostMarketView {
  venue: Venue;
  /** The venue's market id. */
  marketId: string;
  title: string;
  yes: Quote;
  no: Quote;
}

/** The same question priced on another venue: what a pick is weighed against. */
export interface CostAlternativeView {
  venue: Venue;
  marketId: string;
  complete: boolean;
  allInPrice: number | null;
}

/** The best venue for one question of the event and one outcome. */
export interface CostBestView {
  /** The question (the title of the best market). */
  title: string;
  outcome: OutcomeSide;
  venue: Venue;
  marketId: string;
  contracts: number;
  complete: boolean;
  allInUsd: number;
  allInPrice: number | null;
  /** The same question on the other venue, when it was priced. */
  alternative: CostAlternativeView | null;
  /** What the best venue saves per contract against the alternative (both priced), else null. */
  advantagePerContract: number | null;
}

export interface CostRundownView {
  coreId: string;
  eventTitle: string;
  side: Side;
  /** The target: contracts, or USD to spend (buys) / receive (sells). */
  size: number | null;
  amountUsd: number | null;
  venues: CostVenueView[];
  markets: CostMarketView[];
  best: CostBestView[];
  generatedAt: Date;
}

/** Another venue's price for a routed order, for transparency. */
export interface RouteAlternativeView extends CostAlternativeView {
  allInCost: number;
}

/** A quoted route: the venue and market picked, with the price and fees held until `expiresAt`. */
export interface RouteIntentView {
  id: string;
  userId: string;
  accountId: string;
  coreId: string;
  venue: Venue;
  /** The venue's market id. */
  marketId: string;
  marketTitle: string;
  outcome: OutcomeSide;
  side: Side;
  size: number;
  /** Volume-weighted average price of the quoted walk. */
  quotedPrice: number;
  worstPrice: number;
  mid: number | null;
  notional: number;
  fees: number;
  /** Buys: notional + fees; sells: notional − fees. */
  allInCost: number;
  allInPrice: number;
  expiresAt: Date;
  createdAt: Date;
  alternatives: RouteAlternativeView[];
}

export function toRouteIntentView(
  r: RouteIntent,
  extra: { marketTitle: string; mid: number | null; notional: bigint; alternatives: RouteAlternativeView[] },
): RouteIntentView {
  return {
    id: r.id,
    userId: r.userId,
    accountId: r.accountId,
    coreId: r.coreEventId,
    venue: r.venue,
    marketId: r.venueMarketId,
    marketTitle: extra.marketTitle,
    outcome: r.outcome,
    side: r.side,
    size: microsToNumber(r.sizeMicros),
    quotedPrice: microsToNumber(r.quotedPriceMicros),
    worstPrice: microsToNumber(r.worstPriceMicros),
    mid: extra.mid,
    notional: microsToNumber(extra.notional),
    fees: microsToNumber(r.feesMicros),
    allInCost: microsToNumber(r.allInCostMicros),
    allInPrice: microsToNumber((r.allInCostMicros * MICROS_PER_UNIT) / r.sizeMicros),
    expiresAt: r.expiresAt,
    createdAt: r.createdAt,
    alternatives: extra.alternatives,
  };
}

/**
 * The better of two quotes for the trader: one that fills the whole target
 * beats one that does not; then the lower all-in price for buys (higher for
 * sells); then more contracts. Null when neither fills anything.
 */
export function betterQuote(a: Quote | null, b: Quote | null): Quote | null {
  const ok = (q: Quote | null) => q !== null && q.contracts > 0 && q.allInPrice !== null;
  if (!ok(a)) return ok(b) ? b : null;
  if (!ok(b)) return a;
  if (a!.complete !== b!.complete) return a!.complete ? a : b;
  if (a!.allInPrice !== b!.allInPrice) {
    const aBetter = a!.side === 'buy' ? a!.allInPrice! < b!.allInPrice! : a!.allInPrice! > b!.allInPrice!;
    return aBetter ? a : b;
  }
  return b!.contracts > a!.contracts ? b : a;
}
