import { randomUUID } from 'node:crypto';
import type { PublicTrade } from '../../src/venues/venue.models';

/**
 * A public trade as a venue client hands it on (what `TradeIngestService.ingest` takes): by
 * default a buy of 1 YES at 0.5 on venue_a by no known trader, filled now, under a trade id of
 * its own; `fields` sets the market and overrides the rest.
 */
export function publicTrade(fields: Partial<PublicTrade> & Pick<PublicTrade, 'venueMarketId'>): PublicTrade {
  return {
    venue: 'venue_a',
    venueTradeId: `test-${randomUUID()}`,
    venueTraderId: null,
    side: 'buy',
    outcome: 'yes',
    price: 0.5,
    size: 1,
    filledAt: new Date(),
    ...fields,
  };
}
