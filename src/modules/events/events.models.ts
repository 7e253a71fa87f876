import type { CoreEvent, Market } from '../../db/generated/client';
import { round6 } from '../../money/money';
import type { MarketFigures, SourceType, VenueMarket } from '../../venues/venue.models';

/**
 * A venue market as the domain hands it out: the venue's fields (prices as
 * numbers on the 0..1 scale) under the names of the interface, plus its ids.
 */
export type MarketView = Omit<VenueMarket, 'venueMarketId' | 'outcomeTokenIds'> & {
  /** The outcomes' token ids where the venue has them (venue_a), else null. */
  outcomeTokenIds?: OutcomeTokenIds | null;
  /** `venue:marketId`. */
  id: string;
  /** The venue's native market id. */
  marketId: string;
  /** The core event. */
  eventId: string;
};

/** What every view of a core event shows: the event itself and the market-data events list. */
export interface CoreEventFields {
  id: string;
  slug: string;
  title: string;
  category: string;
  sourceType: SourceType;
  closeTime: Date | null;
}

/** A core event row's fields every view shows. */
export function coreEventFields(e: CoreEvent): CoreEventFields {
  return {
    id: e.id,
    slug: e.slug,
    title: e.title,
    category: e.category,
    sourceType: e.sourceType,
    closeTime: e.closeTime,
  };
}

/** A core event without its markets (those load through a loader). */
export interface EventView extends CoreEventFields {
  description: string;
  activityScore: number;
  updatedAt: Date;
}

export interface Page<T> {
  data: T[];
  page: number;
  pageSize: number;
  total: number;
}

type DecimalLike = { toString(): string } | null;

/** Exact decimal from the database to a JSON number (prices have ≤ 6 decimals). */
export function decimalToNumber(value: DecimalLike): number | null {
  return value === null ? null : Number(value.toString());
}

/** The fields a venue market and its catalog row hold alike, stored as the venue gives them. */
export type MarketWording = Pick<
  VenueMarket,
  'venueEventId' | 'title' | 'description' | 'slug' | 'status' | 'outcomes' | 'endDate'
>;

/** A venue market's (or its row's) wording, state and dates: what the catalog stores and shows unchanged. */
export function marketWording(m: MarketWording): MarketWording {
  return {
    venueEventId: m.venueEventId,
    title: m.title,
    description: m.description,
    slug: m.slug,
    status: m.status,
    outcomes: m.outcomes,
    endDate: m.endDate,
  };
}

/** A market row's figures and pictures, as every view of a market shows them. */
export function marketFigures(m: Market): MarketFigures {
  return {
    volume: decimalToNumber(m.volume),
    volume24h: decimalToNumber(m.volume24h),
    openInterest: decimalToNumber(m.openInterest),
    liquidity: decimalToNumber(m.liquidity),
    iconUrl: m.iconUrl,
    imageUrl: m.imageUrl,
  };
}

/** A market's outcome token ids: the ids of its yes and no tokens. */
export interface OutcomeTokenIds {
  yes: string;
  no: string;
}

/** A market row's outcome token ids (stored yes then no), or null where the venue has none. */
export function outcomeTokensOf(m: Pick<Market, 'outcomeTokenIds'>): OutcomeTokenIds | null {
  const ids = m.outcomeTokenIds;
  return ids.length === 2 ? { yes: ids[0], no: ids[1] } : null;
}

export function toMarketView(m: Market): MarketView {
  return {
    id: m.id,
    venue: m.venue,
    marketId: m.venueMarketId,
    eventId: m.coreEventId,
    ...marketWording(m),
    bestBid: decimalToNumber(m.bestBid),
    bestAsk: decimalToNumber(m.bestAsk),
    lastPrice: decimalToNumber(m.lastPrice),
    ...marketFigures(m),
    outcomeTokenIds: outcomeTokensOf(m),
    updatedAt: m.updatedAt,
  };
}

export function toEventView(e: CoreEvent): EventView {
  return {
    ...coreEventFields(e),
    description: e.description,
    activityScore: decimalToNumber(e.activityScore) ?? 0,
    updatedAt: e.updatedAt,
  };
}

/** Mid price when both sides quote, else the last trade price. */
export function yesPrice(m: Pick<MarketView, 'bestBid' | 'bestAsk' | 'lastPrice'>): number | null {
  if (m.bestBid !== null && m.bestAsk !== null) return round6((m.bestBid + m.bestAsk) / 2);
  return m.lastPrice;
}

/** The pub/sub topic announcing that the catalog (events, markets, prices) changed. */
export const CATALOG_CHANGED_TOPIC = 'catalog.changed';
