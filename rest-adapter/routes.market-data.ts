import { z } from 'zod';
import {
  MdApiKeysDocument,
  MdCategoriesDocument,
  MdComparisonDocument,
  MdComparisonsDocument,
  MdCreateApiKeyDocument,
  MdEventsDocument,
  MdMarketsDocument,
  MdRateLimitDocument,
  MdRevokeApiKeyDocument,
  MdUsageDocument,
  MdVenueMarketDocument,
  type MdComparisonQueryVariables,
  type MdComparisonsQueryVariables,
  type MdMarketsQueryVariables,
  type MdRevokeApiKeyMutationVariables,
  type MdVenueMarketQueryVariables,
} from '../schema/generated/operations';
import { API_KEY_LIMITS, API_SCOPES } from '../src/modules/api-keys/api-keys.limits';
import { CATALOG_CHANGED_TOPIC } from '../src/modules/events/events.models';
import { COMPARISON_LIMITS, CONFIDENCES, RELATIONSHIP_TYPES } from '../src/modules/comparisons/comparisons.limits';
import { MARKET_DATA_LIMITS as L, MARKET_STATUSES } from '../src/modules/market-data/market-data.limits';
import { USAGE_LIMITS } from '../src/modules/usage/usage.limits';
import { VENUES } from '../src/venues/venue.models';
import { int, num, oneOf, requiredInt, requiredStr, str } from './params';
import { route } from './route.types';

/** Cursor pages: `limit` 1..200 (default 50) and the opaque `cursor` of the previous page. */
const paging = { limit: int(L.limit.min, L.limit.max, L.limit.default), cursor: str(L.cursor.max) };

/** Every route of the surface: an API key (bearer or X-API-Key), counted against its plan. */
const surface = { surface: 'market-data', auth: 'api-key' } as const;
/**
 * Catalog reads are the same for every key and change only when the catalog is
 * synced: their serialized answers are kept per process until then (the gate
 * has admitted the key, its scope and its quota before any cache is consulted).
 */
const catalogCache = { invalidatedBy: CATALOG_CHANGED_TOPIC };

/** Statuses the gate and the scope check add to every route. */
const ACCESS = [401, 403, 429] as const;

const scopes = z
  .array(z.enum(API_SCOPES, { error: 'must be read or write' }), { error: 'must be an array of scopes' })
  .min(1, { error: 'must name at least one scope' })
  .max(API_SCOPES.length, { error: 'must not repeat a scope' })
  .refine((s) => new Set(s).size === s.length, { error: 'must not repeat a scope' });

/** The market-data surface (served under /market-data): comparisons, markets, events, keys, usage. */
export const marketDataRoutes = [
  route({
    ...surface,
    id: 'mdListComparisons',
    method: 'GET',
    path: '/api/comparisons',
    summary: 'Cross-venue comparisons, filtered, by id (cursor pages; no market arrays).',
    params: {
      query: z.object({
        bucket: str(COMPARISON_LIMITS.bucket.max),
        confidence: oneOf(CONFIDENCES),
        relationship_type: oneOf(RELATIONSHIP_TYPES),
        ...paging,
      }),
    },
    document: MdComparisonsDocument,
    variables: ({ relationship_type, ...rest }: Record<string, unknown>) =>
      ({ ...rest, relationshipType: relationship_type }) as MdComparisonsQueryVariables,
    result: 'comparisons',
    errors: [400, ...ACCESS],
    cache: catalogCache,
    tags: ['market-data'],
  }),
  route({
    ...surface,
    id: 'mdGetComparison',
    method: 'GET',
    path: '/api/comparisons/{comparison_id}',
    summary: "One comparison with both venues' market summaries (mid, bid, ask, spread, volume).",
    params: { path: z.object({ comparison_id: requiredInt(COMPARISON_LIMITS.id.min, COMPARISON_LIMITS.id.max) }) },
    document: MdComparisonDocument,
    variables: ({ comparison_id }: { comparison_id: number }): MdComparisonQueryVariables => ({ id: comparison_id }),
    result: 'comparison',
    errors: [400, 404, ...ACCESS],
    cache: catalogCache,
    tags: ['market-data'],
  }),
  route({
    ...surface,
    id: 'mdGetVenueMarket',
    method: 'GET',
    path: '/api/markets/{venue}/{market_id}',
    summary: 'One venue market by venue and native market id.',
    params: {
      path: z.object({
        venue: z.enum(VENUES, { error: `must be one of ${VENUES.join(', ')}` }),
        market_id: requiredStr(L.marketId.max),
      }),
    },
    document: MdVenueMarketDocument,
    variables: ({
      venue,
      market_id,
    }: {
      venue: MdVenueMarketQueryVariables['venue'];
      market_id: string;
    }): MdVenueMarketQueryVariables => ({
      venue,
      marketId: market_id,
    }),
    result: 'venueMarket',
    errors: [400, 404, ...ACCESS],
    cache: catalogCache,
    tags: ['market-data'],
  }),
  route({
    ...surface,
    id: 'mdListMarkets',
    method: 'GET',
    path: '/api/markets',
    summary: 'Venue markets, filtered, by venue and id (cursor pages).',
    params: {
      query: z.object({
        venue: oneOf(VENUES),
        status: oneOf(MARKET_STATUSES),
        min_volume: num(L.minVolume.min, L.minVolume.max),
        category: str(L.category.max),
        ...paging,
      }),
    },
    document: MdMarketsDocument,
    variables: ({ min_volume, ...rest }: Record<string, unknown>) =>
      ({ ...rest, minVolume: min_volume }) as MdMarketsQueryVariables,
    result: 'marketDataMarkets',
    errors: [400, ...ACCESS],
    cache: catalogCache,
    tags: ['market-data'],
  }),
  route({
    ...surface,
    id: 'mdListEvents',
    method: 'GET',
    path: '/api/events',
    summary: 'Core events, by id (cursor pages).',
    params: { query: z.object({ category: str(L.category.max), ...paging }) },
    document: MdEventsDocument,
    result: 'marketDataEvents',
    errors: [400, ...ACCESS],
    cache: catalogCache,
    tags: ['market-data'],
  }),
  route({
    ...surface,
    id: 'mdEventCategories',
    method: 'GET',
    path: '/api/events/categories',
    summary: 'Event counts per category, largest first.',
    document: MdCategoriesDocument,
    result: 'eventCategories',
    errors: [...ACCESS],
    cache: catalogCache,
    tags: ['market-data'],
  }),
  route({
    ...surface,
    id: 'mdCreateApiKey',
    method: 'POST',
    path: '/api/keys',
    summary:
      'A new key for the caller, on its plan, with scopes the calling key holds; the full key is in this ' +
      'response only (scope write; 409 past the per-owner key limit).',
    params: {
      body: z.object({
        name: z
          .string({ error: 'is required' })
          .min(API_KEY_LIMITS.name.min, { error: 'must not be empty' })
          .max(API_KEY_LIMITS.name.max, { error: `must be at most ${API_KEY_LIMITS.name.max} characters` }),
        scopes,
      }),
    },
    document: MdCreateApiKeyDocument,
    result: 'createApiKey',
    status: 201,
    errors: [400, 409, ...ACCESS],
    tags: ['market-data'],
  }),
  route({
    ...surface,
    id: 'mdListApiKeys',
    method: 'GET',
    path: '/api/keys',
    summary: "The caller's active keys, with previews and last use (never the keys).",
    document: MdApiKeysDocument,
    result: 'apiKeys',
    errors: [...ACCESS],
    tags: ['market-data'],
  }),
  route({
    ...surface,
    id: 'mdRevokeApiKey',
    method: 'DELETE',
    path: '/api/keys/{key_id}',
    summary: "Revokes one of the caller's keys, immediately and for good (scope write).",
    params: { path: z.object({ key_id: requiredStr(API_KEY_LIMITS.keyId.max) }) },
    document: MdRevokeApiKeyDocument,
    variables: ({ key_id }: { key_id: string }): MdRevokeApiKeyMutationVariables => ({ keyId: key_id }),
    result: 'revokeApiKey',
    errors: [404, ...ACCESS],
    tags: ['market-data'],
  }),
  route({
    ...surface,
    id: 'mdUsage',
    method: 'GET',
    path: '/api/users/me/usage',
    summary: "Requests of the key's owner per endpoint and per UTC day.",
    params: { query: z.object({ days: int(USAGE_LIMITS.days.min, USAGE_LIMITS.days.max, USAGE_LIMITS.days.default) }) },
    document: MdUsageDocument,
    result: 'apiUsage',
    errors: [400, ...ACCESS],
    tags: ['market-data'],
  }),
  route({
    ...surface,
    id: 'mdRateLimit',
    method: 'GET',
    path: '/api/users/me/rate-limit',
    summary: "The key's plan, limit, remaining quota and reset; spends no quota.",
    document: MdRateLimitDocument,
    result: 'apiRateLimit',
    errors: [401, 403],
    tags: ['market-data'],
  }),
];
