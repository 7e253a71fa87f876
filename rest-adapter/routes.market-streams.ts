import { z } from 'zod';
import {
  MarketSetUpdatesDocument,
  MarketUpdatesDocument,
  type MarketSetUpdatesSubscriptionVariables,
} from '../schema/generated/operations';
import { MARKET_STREAM_LIMITS as L } from '../src/modules/market-streams/market-streams.limits';
import { VENUES, type Venue } from '../src/venues/venue.models';
import { int, requiredStr } from './params';
import { route } from './route.types';

/** `event:` snapshot, delta or stale (the update's `kind`); `id:` `venue:marketId:seq`. */
const stream = { event: 'snapshot, delta or stale', eventField: 'kind', idField: 'id' };

const depth = int(L.depth.min, L.depth.max, L.depth.default);

const isMarketId = (id: string) =>
  VENUES.some((v) => id.startsWith(`${v}:`) && id.length > v.length + 1 && id.length <= v.length + 1 + L.marketId.max);

/** `ids`: `venue:marketId` separated by commas, 1..max of them; to the subscription's `markets`. */
const ids = z
  .string({ error: 'is required' })
  .transform((v) => [...new Set(v.split(',').map((id) => id.trim()))])
  .refine((list) => list.every((id) => id !== ''), { error: 'must not hold an empty id' })
  .refine((list) => list.length <= L.markets.max, { error: `must list at most ${L.markets.max} markets` })
  .refine((list) => list.every(isMarketId), {
    error: `must be market ids \`venue:marketId\` (${VENUES.join(' or ')}), comma-separated`,
  })
  .transform((list) =>
    list.map((id) => {
      const at = id.indexOf(':');
      return { venue: id.slice(0, at) as Venue, marketId: id.slice(at + 1) };
    }),
  );

const RESUME =
  '`Last-Event-ID` (a reconnection): that market goes on without a snapshot when nothing was missed since, ' +
  'else starts with a fresh one.';

/**
 * Live order books as server-sent events (the GraphQL `marketUpdates` subscription, for one market
 * or several): additions beyond the interface documents.
 */
export const marketStreamRoutes = [
  route({
    id: 'streamMarket',
    surface: 'trading',
    method: 'GET',
    path: '/stream/markets/{venue}/{marketId}',
    summary:
      "Server-sent events: one market's live YES book. First `event: snapshot` (the top `depth` levels, best " +
      'bid and ask, last price), then `event: delta` per change (the levels that changed within the top ' +
      '`depth`, size 0: gone) with consecutive `seq`, `event: stale` while the book is not live. `id:` ' +
      `\`venue:marketId:seq\`; ${RESUME} 404 for a market the catalog does not hold; 503 when the venue ` +
      'streams no books (`VENUE_STREAMS=off`).',
    auth: 'none',
    params: {
      path: z.object({
        venue: z.enum(VENUES, { error: `must be one of ${VENUES.join(', ')}` }),
        marketId: requiredStr(L.marketId.max),
      }),
      query: z.object({ depth }),
    },
    document: MarketUpdatesDocument,
    result: 'marketUpdates',
    errors: [400, 404, 429, 503],
    stream,
    beyondDocuments: true,
    tags: ['stream'],
  }),
  route({
    id: 'streamMarkets',
    surface: 'trading',
    method: 'GET',
    path: '/stream/markets',
    summary:
      `Server-sent events: the live YES books of up to ${L.markets.max} markets on one connection ` +
      '(`ids=venue_b:KX…,venue_a:0x…`), each as `/stream/markets/{venue}/{marketId}` (tell them apart by ' +
      `\`venue\` and \`marketId\`). ${RESUME} 400 naming \`ids\` for more than ${L.markets.max} or a malformed ` +
      'id; 404 for a market the catalog does not hold.',
    auth: 'none',
    params: { query: z.object({ ids, depth }) },
    document: MarketSetUpdatesDocument,
    variables: (input): MarketSetUpdatesSubscriptionVariables => ({
      markets: input.ids as MarketSetUpdatesSubscriptionVariables['markets'],
      depth: input.depth as number,
    }),
    result: 'marketUpdates',
    errors: [400, 404, 429, 503],
    stream,
    beyondDocuments: true,
    tags: ['stream'],
  }),
];
