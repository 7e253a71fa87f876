import { z } from 'zod';
import {
  FeedDocument,
  FeedItemDocument,
  FeedQualityDocument,
  FeedStreamDocument,
  IngestFeedDocument,
  type FeedQueryVariables,
  type FeedStreamSubscriptionVariables,
} from '../schema/generated/operations';
import { FEED_LIMITS as L } from '../src/modules/feed/feed.limits';
import { int, requiredStr, str } from './params';
import { route } from './route.types';

const filters = { category: str(L.category.max), source: str(L.source.max), core_event_id: str(200) };
/** `core_event_id` on the wire, `coreEventId` in the operation (the inputs are parsed by the schemas above). */
const renameEvent = <T>({ core_event_id, ...rest }: Record<string, unknown>) =>
  ({ ...rest, coreEventId: core_event_id }) as T;

const text = (max: number) =>
  z.string({ error: 'must be a string' }).max(max, { error: `must be at most ${max} characters` });
const item = z.object({
  source: z
    .string({ error: 'is required' })
    .regex(/^[a-z0-9][a-z0-9._-]*$/, { error: 'must be lowercase letters, digits, dot, dash or underscore' })
    .max(L.source.max, { error: `must be at most ${L.source.max} characters` }),
  externalId: text(L.externalId.max).min(1, { error: 'is required' }),
  kind: text(32).optional(),
  title: text(L.title.max).min(1, { error: 'is required' }),
  summary: text(L.summary.max).optional(),
  url: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .max(L.url.max)
    .optional(),
  author: text(L.author.max).optional(),
  category: text(L.category.max).optional(),
  coreEventId: text(200).optional(),
  tags: z
    .array(text(L.tags.length))
    .max(L.tags.max, { error: `must have at most ${L.tags.max} tags` })
    .optional(),
  publishedAt: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }),
});

/** The feed: cursor pages, quality, the live stream and the ingest worker's endpoint. */
export const feedRoutes = [
  route({
    id: 'listFeed',
    surface: 'trading',
    method: 'GET',
    path: '/api/feed',
    summary: 'Feed items, newest first (cursor pages).',
    auth: 'none',
    params: {
      query: z.object({ ...filters, limit: int(L.limit.min, L.limit.max, L.limit.default), cursor: str(2000) }),
    },
    document: FeedDocument,
    variables: renameEvent<FeedQueryVariables>,
    result: 'feed',
    errors: [400],
    tags: ['feed'],
  }),
  route({
    id: 'feedQuality',
    surface: 'trading',
    method: 'GET',
    path: '/api/feed/quality',
    summary: 'Mapping rate, per-source counts, duplicates rejected and freshness.',
    auth: 'none',
    document: FeedQualityDocument,
    result: 'feedQuality',
    errors: [],
    tags: ['feed'],
  }),
  route({
    id: 'streamFeed',
    surface: 'trading',
    method: 'GET',
    path: '/api/feed/stream',
    summary:
      'Server-sent events of new feed items (`event: feed_item`, `id:` the item id, in increasing order); ' +
      'with `Last-Event-ID` every item after it first (400 when it is no feed id).',
    auth: 'none',
    params: { query: z.object(filters) },
    document: FeedStreamDocument,
    variables: renameEvent<FeedStreamSubscriptionVariables>,
    result: 'feed',
    errors: [400, 429],
    stream: { event: 'feed_item', idField: 'id' },
    tags: ['feed'],
  }),
  route({
    id: 'getFeedItem',
    surface: 'trading',
    method: 'GET',
    path: '/api/feed/{id}',
    summary: 'One feed item.',
    auth: 'none',
    params: { path: z.object({ id: requiredStr(40) }) },
    document: FeedItemDocument,
    result: 'feedItem',
    errors: [404],
    tags: ['feed'],
  }),
  route({
    id: 'ingestFeed',
    surface: 'trading',
    method: 'POST',
    path: '/api/feed/ingest',
    summary: 'The feed worker delivers a batch; idempotent by source and external id.',
    auth: 'feed-ingest',
    params: {
      body: z.object({
        items: z
          .array(item)
          .min(1, { error: 'must not be empty' })
          .max(L.batch.max, { error: `at most ${L.batch.max} items` }),
      }),
    },
    document: IngestFeedDocument,
    result: 'ingestFeed',
    errors: [400, 401],
    tags: ['feed'],
  }),
];
