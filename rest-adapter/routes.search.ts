import { z } from 'zod';
import { SearchEventsDocument } from '../schema/generated/operations';
import { SEARCH_LIMITS as L } from '../src/modules/search/search.limits';
import { int, num } from './params';
import { route } from './route.types';

/** Semantic event search (`/api/events/search` is routed before `/api/events/{slug}`: literal segments win). */
export const searchRoutes = [
  route({
    id: 'searchEvents',
    surface: 'trading',
    method: 'GET',
    path: '/api/events/search',
    summary:
      'Semantic vector search over event titles, descriptions and outcomes, best match first. 429 beyond a ' +
      'per-client burst limit (the user when a user token is sent, else the client address).',
    auth: 'none',
    params: {
      query: z.object({
        q: z
          .string({ error: 'is required' })
          .trim()
          .min(1, { error: 'must not be blank' })
          .max(L.q.max, { error: `must be at most ${L.q.max} characters` }),
        limit: int(L.limit.min, L.limit.max),
        threshold: num(L.threshold.min, L.threshold.max),
      }),
    },
    document: SearchEventsDocument,
    result: 'searchEvents',
    errors: [400, 429, 502, 503],
    tags: ['events', 'search'],
  }),
];
