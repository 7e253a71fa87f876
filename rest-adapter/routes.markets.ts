import { z } from 'zod';
import { MarketDetailDocument, MarketHoldersDocument, MarketTradesDocument } from '../schema/generated/operations';
import { HISTORY_LIMITS } from '../src/modules/charts/charts.limits';
import { MARKETS_LIMITS as L } from '../src/modules/markets/markets.limits';
import { VENUES } from '../src/venues/venue.models';
import { int, requiredStr } from './params';
import { route } from './route.types';

/** A venue market in the path: an unknown venue is a 400, an unknown market a 404. */
const marketPath = z.object({
  venue: z.enum(VENUES, { error: `must be one of ${VENUES.join(', ')}` }),
  marketId: requiredStr(L.marketId.max),
});

const screen = { surface: 'trading', method: 'GET', auth: 'none', tags: ['markets'] } as const;

/** The market screens; each runs one GraphQL query over `Market` fields. */
export const marketRoutes = [
  route({
    ...screen,
    id: 'marketDetail',
    path: '/api/markets/{venue}/{marketId}/detail',
    summary:
      'The detail screen in one response: market, core event, order book, last trades, chart of chartPoints ' +
      'buckets, counterpart on the other venue with the price difference, holder summary.',
    params: {
      path: marketPath,
      query: z.object({ chartPoints: int(HISTORY_LIMITS.chartPoints.min, HISTORY_LIMITS.chartPoints.max) }),
    },
    document: MarketDetailDocument,
    result: 'market',
    errors: [400, 404, 429, 503],
  }),
  route({
    ...screen,
    id: 'marketHolders',
    path: '/api/markets/{venue}/{marketId}/holders',
    summary: 'Largest holders: venue_a wallets from position data; venue_b exposes none (empty list and a reason).',
    params: { path: marketPath, query: z.object({ limit: int(L.holders.min, L.holders.max) }) },
    document: MarketHoldersDocument,
    result: 'market.holders',
    errors: [400, 404, 429, 503],
  }),
  route({
    ...screen,
    id: 'marketTrades',
    path: '/api/markets/{venue}/{marketId}/trades',
    summary: 'Public trades, newest first (offset pages with hasMore).',
    params: {
      path: marketPath,
      query: z.object({
        limit: int(L.trades.min, L.trades.max),
        offset: int(L.tradesOffset.min, L.tradesOffset.max),
      }),
    },
    document: MarketTradesDocument,
    result: 'market.trades',
    errors: [400, 404, 429, 503],
  }),
];
