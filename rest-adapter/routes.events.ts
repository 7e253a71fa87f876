import { z } from 'zod';
import {
  DiscoverEventsDocument,
  EventMarketsDocument,
  GetEventDocument,
  ListEventsDocument,
} from '../schema/generated/operations';
import { DISCOVER_SORTS, EVENTS_LIMITS, MARKET_SORTS } from '../src/modules/events/events.limits';
import { CATALOG_CHANGED_TOPIC } from '../src/modules/events/events.models';
import { SOURCE_TYPES, VENUES } from '../src/venues/venue.models';
import { bool, int, oneOf, requiredStr, str } from './params';
import { route } from './route.types';

const { page, pageSize, searchLength } = EVENTS_LIMITS;

const paging = {
  page: int(page.min, page.max, page.default),
  pageSize: int(pageSize.min, pageSize.max, pageSize.default),
};

const discoverQuery = z.object({
  search: str(searchLength.max),
  category: str(64),
  venue: oneOf(VENUES),
  sort: oneOf(DISCOVER_SORTS),
  ...paging,
});

/** Catalog reads change only when the catalog is synced, which announces itself. */
const catalogCache = { invalidatedBy: CATALOG_CHANGED_TOPIC };

const discover = {
  surface: 'trading',
  method: 'GET',
  auth: 'none',
  params: { query: discoverQuery },
  document: DiscoverEventsDocument,
  result: 'discoverEvents',
  errors: [400, 429],
  tags: ['events'],
} as const;

/** The events slice of the trading surface. */
export const eventRoutes = [
  route({
    id: 'listEvents',
    surface: 'trading',
    method: 'GET',
    path: '/api/events',
    summary: 'Core events, most active first (page-based; ETag/304).',
    auth: 'none',
    params: {
      query: z.object({ ...paging, category: str(64), sourceType: oneOf(SOURCE_TYPES) }),
    },
    document: ListEventsDocument,
    result: 'events',
    errors: [304, 400],
    etag: true,
    cache: catalogCache,
    tags: ['events'],
  }),
  route({
    ...discover,
    id: 'discoverEvents',
    path: '/api/events/discover',
    summary: 'Search, filter and sort events.',
  }),
  route({
    ...discover,
    id: 'discoverMarketsDeprecated',
    path: '/api/markets/discover',
    summary: 'Deprecated alias of /api/events/discover.',
    deprecated: { since: new Date(Date.UTC(2026, 3, 17)), successor: '/api/events/discover' },
  }),
  route({
    id: 'getEvent',
    surface: 'trading',
    method: 'GET',
    path: '/api/events/{slug}',
    summary: 'One core event by slug (or id), with its markets (ETag/304).',
    auth: 'none',
    params: { path: z.object({ slug: requiredStr(200) }) },
    document: GetEventDocument,
    // The path names it `slug`; the operation takes any event reference.
    variables: ({ slug }: { slug: string }) => ({ ref: slug }),
    result: 'event',
    errors: [304, 404],
    etag: true,
    cache: catalogCache,
    tags: ['events'],
  }),
  route({
    id: 'eventMarkets',
    surface: 'trading',
    method: 'GET',
    path: '/api/events/{eventId}/markets',
    summary: "An event's markets, filtered and sorted.",
    auth: 'none',
    params: {
      path: z.object({ eventId: requiredStr(200) }),
      query: z.object({ venue: oneOf(VENUES), openOnly: bool(), sort: oneOf(MARKET_SORTS) }),
    },
    document: EventMarketsDocument,
    result: 'eventMarkets',
    errors: [400, 404],
    cache: catalogCache,
    tags: ['events'],
  }),
];
