import { z } from 'zod';
import { FollowDocument, FollowsDocument, UnfollowDocument } from '../schema/generated/operations';
import { FOLLOW_LIMITS as L } from '../src/modules/social/follows.resolver';
import { VENUES } from '../src/venues/venue.types';
import { int, requiredStr } from './params';
import { route } from './route.types';

const venue = z.enum(VENUES, { error: `must be one of ${VENUES.join(', ')}` });
const common = { surface: 'trading', auth: 'bearer', tags: ['social'] } as const;

/** Follows (the social graph the feed, bubbles and copytrading read). */
export const socialRoutes = [
  route({
    ...common,
    id: 'follow',
    method: 'POST',
    path: '/api/follows',
    summary: 'Follow a trader (idempotent: following again returns the follow).',
    params: { body: z.object({ venue, traderId: requiredStr(100) }) },
    document: FollowDocument,
    result: 'follow',
    status: 201,
    errors: [400, 401],
  }),
  route({
    ...common,
    id: 'listFollows',
    method: 'GET',
    path: '/api/follows',
    summary: "The caller's follows, newest first.",
    params: { query: z.object({ limit: int(L.limit.min, L.limit.max, L.limit.default), offset: int(L.offset.min, L.offset.max, 0) }) },
    document: FollowsDocument,
    result: 'follows',
    errors: [400, 401],
  }),
  route({
    ...common,
    id: 'unfollow',
    method: 'DELETE',
    path: '/api/follows/{venue}/{traderId}',
    summary: 'Unfollow a trader (idempotent).',
    params: { path: z.object({ venue, traderId: requiredStr(100) }) },
    document: UnfollowDocument,
    result: 'unfollow',
    errors: [400, 401],
  }),
];
