import type { OutcomeSide, PublicTrade, Side, Venue } from '../../venues/venue.models';

/** The pub/sub topic every live trade is published on (both venues). */
export const TRADES_TOPIC = 'trades';

/**
 * What every view of a public trade shows: the live stream, a market's and a trader's history,
 * a copied trade, the home screen's activity.
 */
export interface TradeFigures {
  /** `venue:venueTradeId`, unique and stable: the SSE `id:`. */
  id: string;
  venue: Venue;
  /** The venue's market id. */
  marketId: string;
  side: Side;
  outcome: OutcomeSide;
  price: number;
  size: number;
}

/** A public trade as published on the trades topic and streamed to clients. */
export interface TradeEvent extends TradeFigures {
  /** The core event of the market, when the market is known. */
  eventId: string | null;
  /** A wallet on venue_a; null on venue_b. */
  traderId: string | null;
  /** ISO 8601. */
  filledAt: string;
}

/** A decimal as the venues, the database rows (Prisma decimals) or raw SQL text give it. */
type DecimalValue = number | string | { toString(): string };

/** The figures of a public trade, from the venue's feed or a stored trade row. */
export function tradeFigures(
  t: Pick<PublicTrade, 'venue' | 'venueTradeId' | 'venueMarketId' | 'side' | 'outcome'> & {
    price: DecimalValue;
    size: DecimalValue;
  },
): TradeFigures {
  return {
    id: `${t.venue}:${t.venueTradeId}`,
    venue: t.venue,
    marketId: t.venueMarketId,
    side: t.side,
    outcome: t.outcome,
    price: Number(t.price.toString()),
    size: Number(t.size.toString()),
  };
}
