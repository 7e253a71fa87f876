import { z } from 'zod';
import {
  CachePolicyDocument,
  CatalogDecisionsDocument,
  MergeCoreEventsDocument,
  PinCatalogDecisionDocument,
  SplitVenueEventDocument,
} from '../schema/generated/operations';
import { CATALOG_ADMIN_LIMITS as CL } from '../src/modules/ingestion/ingestion.limits';
import { VENUES } from '../src/venues/venue.models';
import { bool, int, requiredStr, str } from './params';
import { route } from './route.types';

const catalog = { surface: 'trading', auth: 'admin', tags: ['admin'] } as const;

/** Admin operations (X-Admin-Token). */
export const adminRoutes = [
  route({
    id: 'cachePolicy',
    surface: 'trading',
    method: 'GET',
    path: '/api/admin/storage/cache-policy',
    summary: 'The cache lifetimes in force: history TTLs, ETag policy, REST response caches, memos, API-key lookups.',
    auth: 'admin',
    document: CachePolicyDocument,
    result: 'cachePolicy',
    errors: [401],
    tags: ['admin'],
  }),
  route({
    ...catalog,
    id: 'catalogDecisions',
    method: 'GET',
    path: '/api/admin/catalog/decisions',
    summary:
      "The catalog job's merge / separate decisions on cross-venue pairs, with similarity, the matcher's " +
      'verdict and the reason; admin overrides are pinned.',
    params: {
      query: z.object({
        venueEventId: str(CL.id.max),
        pinned: bool(),
        limit: int(CL.decisions.min, CL.decisions.max, CL.decisions.default),
        offset: int(CL.decisionsOffset.min, CL.decisionsOffset.max, CL.decisionsOffset.default),
      }),
    },
    document: CatalogDecisionsDocument,
    result: 'catalogDecisions',
    errors: [400, 401],
  }),
  route({
    ...catalog,
    id: 'mergeCoreEvents',
    method: 'POST',
    path: '/api/admin/catalog/merge',
    summary:
      'Merge two core events holding one venue event each, one per venue, into one (pinned: later syncs keep ' +
      'it). 404 unknown event; 409 an event already merged, both on one venue, or a simulated catalog.',
    params: {
      body: z.object({
        eventId: requiredStr(CL.id.max),
        otherEventId: requiredStr(CL.id.max),
        reason: str(CL.reason.max),
      }),
    },
    document: MergeCoreEventsDocument,
    result: 'mergeCoreEvents',
    errors: [400, 401, 404, 409],
  }),
  route({
    ...catalog,
    id: 'splitVenueEvent',
    method: 'POST',
    path: '/api/admin/catalog/split',
    summary:
      'Split a venue event out of its merged core event into one of its own (pinned). 404 unknown venue ' +
      'event; 409 not merged, or a simulated catalog.',
    params: {
      body: z.object({
        venue: z.enum(VENUES, { error: `must be one of ${VENUES.join(', ')}` }),
        venueEventId: requiredStr(CL.id.max),
        reason: str(CL.reason.max),
      }),
    },
    document: SplitVenueEventDocument,
    result: 'splitVenueEvent',
    errors: [400, 401, 404, 409],
  }),
  route({
    ...catalog,
    id: 'pinCatalogDecision',
    method: 'POST',
    path: '/api/admin/catalog/pin',
    summary: 'Pin a decision as it stands: the matcher no longer revisits the pair. 404 no such decision.',
    params: {
      body: z.object({ venueAEventId: requiredStr(CL.id.max), venueBEventId: requiredStr(CL.id.max) }),
    },
    document: PinCatalogDecisionDocument,
    result: 'pinCatalogDecision',
    errors: [400, 401, 404],
  }),
];
