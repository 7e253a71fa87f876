import type { OutcomeSide, Side, Venue } from '../../venues/venue.models';

/** The pub/sub topic every live trade is published on (both venues). */
export const TRADES_TOPIC = 'trades';

/** A public trade as published on the trades topic and streamed to clients. */
export interface TradeEvent {
  /** `venue:venueTradeId`, unique and stable: the SSE `id:`. */
  id: string;
  venue: Venue;
  marketId: string;
  /** The core event of the market, when the market is known. */
  eventId: string | null;
  /** A wallet on venue_a; null on venue_b. */
  traderId: string | null;
  side: Side;
  outcome: OutcomeSide;
  price: number;
  size: number;
  /** ISO 8601. */
  filledAt: string;
}
