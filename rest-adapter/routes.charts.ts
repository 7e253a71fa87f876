import { z } from 'zod';
import { EventHistoryDocument } from '../schema/generated/operations';
import { HISTORY_INTERVALS, HISTORY_LIMITS } from '../src/modules/charts/charts.limits';
import { VENUES } from '../src/venues/venue.models';
import { int, oneOf, requiredStr } from './params';
import { route } from './route.types';

const { time } = HISTORY_LIMITS;

/** Event price history. Not response-cached here: each venue series is cached (Redis) with its own TTL. */
export const chartRoutes = [
  route({
    id: 'eventHistory',
    surface: 'trading',
    method: 'GET',
    path: '/api/events/{eventId}/history',
    summary:
      'OHLC-style history of every market of the event: both venues in parallel, one normalized candle series ' +
      'per market (venue_a points: o=h=l=c, v null). A failed venue is listed in failedVenues; 503 when all ' +
      'fail.',
    auth: 'none',
    params: {
      path: z.object({ eventId: requiredStr(200) }),
      query: z.object({
        interval: oneOf(HISTORY_INTERVALS),
        from: int(time.min, time.max),
        to: int(time.min, time.max),
        venue: oneOf(VENUES),
      }),
    },
    document: EventHistoryDocument,
    result: 'event.history',
    errors: [400, 404, 429, 503],
    tags: ['charts'],
  }),
];
