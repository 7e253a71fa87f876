import { z } from 'zod';
import {
  CommentRepliesDocument,
  CreateEventCommentDocument,
  CreateTradeCommentDocument,
  DeleteCommentDocument,
  EventCommentsDocument,
  LikeCommentDocument,
  TradeCommentsDocument,
  UnlikeCommentDocument,
} from '../schema/generated/operations';
import { COMMENT_LIMITS as L, COMMENT_SORTS } from '../src/modules/comments/comments.limits';
import { int, oneOf, requiredStr } from './params';
import { route } from './route.types';

const paging = {
  limit: int(L.limit.min, L.limit.max, L.limit.default),
  offset: int(L.offset.min, L.offset.max, L.offset.default),
};
const listQuery = z.object({ ...paging, sort: oneOf(COMMENT_SORTS) });
const body = z.object({
  body: z
    .string({ error: 'is required' })
    .trim()
    .min(L.body.min, { error: 'must not be blank' })
    .max(L.body.max, { error: `must be at most ${L.body.max} characters` }),
  parentId: z.string({ error: 'must be a string' }).max(100).optional(),
});
const commentPath = { path: z.object({ commentId: requiredStr(100) }) };
const common = { surface: 'trading', tags: ['comments'] } as const;

/** Comments on events and trades, replies and likes. */
export const commentRoutes = [
  route({
    ...common,
    id: 'listEventComments',
    method: 'GET',
    path: '/api/events/{slug}/comments',
    summary: "An event's comments (offset pages; sort recent or top).",
    auth: 'none',
    params: { path: z.object({ slug: requiredStr(200) }), query: listQuery },
    document: EventCommentsDocument,
    variables: ({ slug, ...rest }: Record<string, unknown>) => ({ ...rest, event: slug as string }),
    result: 'eventComments',
    errors: [400, 404],
  }),
  route({
    ...common,
    id: 'createEventComment',
    method: 'POST',
    path: '/api/events/{slug}/comments',
    summary: 'Comment on an event, or reply with `parentId`.',
    auth: 'bearer',
    params: { path: z.object({ slug: requiredStr(200) }), body },
    document: CreateEventCommentDocument,
    variables: ({ slug, body: text, parentId }: Record<string, unknown>) => ({
      event: slug as string,
      body: text as string,
      parentId: parentId as string | undefined,
    }),
    result: 'createEventComment',
    status: 201,
    errors: [400, 401, 404, 429],
  }),
  route({
    ...common,
    id: 'listTradeComments',
    method: 'GET',
    path: '/api/trades/{tradeId}/comments',
    summary:
      "A trade's comments. `tradeId` is any trade id the service shows: `venue:venueTradeId` (market, trader " +
      'and event trades, the live stream) or `trade:<id>` / `fill:<id>` (portfolio history); 404 for any other.',
    auth: 'none',
    params: { path: z.object({ tradeId: requiredStr(300) }), query: listQuery },
    document: TradeCommentsDocument,
    result: 'tradeComments',
    errors: [400, 404],
  }),
  route({
    ...common,
    id: 'createTradeComment',
    method: 'POST',
    path: '/api/trades/{tradeId}/comments',
    summary: 'Comment on a trade, or reply with `parentId`.',
    auth: 'bearer',
    params: { path: z.object({ tradeId: requiredStr(300) }), body },
    document: CreateTradeCommentDocument,
    result: 'createTradeComment',
    status: 201,
    errors: [400, 401, 404, 429],
  }),
  route({
    ...common,
    id: 'listCommentReplies',
    method: 'GET',
    path: '/api/comments/{commentId}/replies',
    summary: 'Replies of a comment, oldest first.',
    auth: 'none',
    params: { ...commentPath, query: z.object(paging) },
    document: CommentRepliesDocument,
    result: 'commentReplies',
    errors: [400, 404],
  }),
  route({
    ...common,
    id: 'deleteComment',
    method: 'DELETE',
    path: '/api/comments/{commentId}',
    summary: 'Delete a comment and its replies (author only).',
    auth: 'bearer',
    params: commentPath,
    document: DeleteCommentDocument,
    result: 'deleteComment',
    errors: [401, 403, 404],
  }),
  route({
    ...common,
    id: 'likeComment',
    method: 'POST',
    path: '/api/comments/{commentId}/like',
    summary: 'Like a comment (idempotent).',
    auth: 'bearer',
    params: commentPath,
    document: LikeCommentDocument,
    result: 'likeComment',
    errors: [401, 404, 429],
  }),
  route({
    ...common,
    id: 'unlikeComment',
    method: 'DELETE',
    path: '/api/comments/{commentId}/like',
    summary: 'Remove a like (idempotent).',
    auth: 'bearer',
    params: commentPath,
    document: UnlikeCommentDocument,
    result: 'unlikeComment',
    errors: [401, 404, 429],
  }),
];
