import { AppError } from '../../errors/app-error';
import { VENUES } from '../../venues/venue.models';
import type { MarketView } from '../events/events.models';
import type { EventsService } from '../events/events.service';
import type { MarketsService } from '../markets/markets.service';
import type { CheckedRequest } from './execute-request';

/** The catalog (memoized reads): markets an order names, and their events. */
export interface Catalog {
  markets: Pick<MarketsService, 'marketsByIds'>;
  events: Pick<EventsService, 'get'>;
}

/**
 * The market an order names: `marketId` as `venue:id`, or the venue's id
 * (`venueMarketId` wins when both are given) on `venue` or on either venue.
 * Read from the catalog memo. Unknown, ambiguous, of another event, or not
 * trading: 400.
 */
export async function lookUpMarket(catalog: Catalog, req: CheckedRequest): Promise<MarketView> {
  const prefixed = /^(venue_a|venue_b):(.+)$/.exec(req.marketId);
  const native = req.venueMarketId ?? req.marketId;
  const keys = prefixed ? [req.marketId] : (req.venue ? [req.venue] : VENUES).map((v) => `${v}:${native}`);
  const found = (await catalog.markets.marketsByIds(keys)).filter((m): m is MarketView => m !== null);
  if (found.length === 0)
    throw AppError.badRequest(
      'marketId',
      `no market ${req.marketId}${req.venue && !prefixed ? ` on ${req.venue}` : ''}`,
    );
  if (found.length > 1) throw AppError.badRequest('venue', 'is required: this market id is listed on both venues');
  const m = found[0];
  if (req.venue && m.venue !== req.venue) throw AppError.badRequest('venue', `market ${req.marketId} is on ${m.venue}`);
  if (prefixed && req.venueMarketId !== undefined && req.venueMarketId !== m.marketId) {
    throw AppError.badRequest('venueMarketId', `does not match marketId ${req.marketId}`);
  }
  if (req.coreId !== undefined) {
    const event = await catalog.events.get(req.coreId).catch(() => null);
    if (event?.id !== m.eventId)
      throw AppError.badRequest('coreId', `market ${req.marketId} is not a market of ${req.coreId}`);
  }
  if (m.status !== 'active')
    throw AppError.badRequest('marketId', `market ${req.marketId} is ${m.status}, not trading`);
  return m;
}
