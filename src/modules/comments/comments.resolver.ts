import { Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import {
  CommentIdArgs,
  CommentRepliesArgs,
  CreateEventCommentArgs,
  CreateTradeCommentArgs,
  EventCommentsArgs,
  TradeCommentsArgs,
} from './comments.inputs';
import { CommentsService, type CommentView } from './comments.service';
import { CommentPageType, CommentType, LikeStateType } from './comments.types';
import { commentsLoaders } from './comments.loaders';

@Resolver(() => CommentType)
export class CommentsResolver {
  @Query(() => CommentPageType, { description: "An event's comments (top level)." })
  async eventComments(@Args() a: EventCommentsArgs, @Ctx() ctx: GraphQLContext) {
    const s = ctx.services.get(CommentsService);
    return s.list(await s.eventTarget(a.event), a.sort, a.limit, a.offset);
  }

  @Query(() => CommentPageType, { description: "A trade's comments (top level)." })
  async tradeComments(@Args() a: TradeCommentsArgs, @Ctx() ctx: GraphQLContext) {
    const s = ctx.services.get(CommentsService);
    return s.list(await s.tradeTarget(a.tradeId), a.sort, a.limit, a.offset);
  }

  @Query(() => CommentPageType, { description: 'Replies of a comment, oldest first.' })
  commentReplies(@Args() a: CommentRepliesArgs, @Ctx() ctx: GraphQLContext) {
    return ctx.services.get(CommentsService).replies(a.commentId, a.limit, a.offset);
  }

  @Mutation(() => CommentType)
  async createEventComment(@Args() a: CreateEventCommentArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    await ctx.services.rateLimits.consume('comments', userId);
    const s = ctx.services.get(CommentsService);
    return s.create(userId, await s.eventTarget(a.event), a.body, a.parentId);
  }

  @Mutation(() => CommentType)
  async createTradeComment(@Args() a: CreateTradeCommentArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    await ctx.services.rateLimits.consume('comments', userId);
    const s = ctx.services.get(CommentsService);
    return s.create(userId, await s.tradeTarget(a.tradeId), a.body, a.parentId);
  }

  @Mutation(() => CommentType, { description: 'Deletes a comment with its replies (author only).' })
  async deleteComment(@Args() { commentId }: CommentIdArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(CommentsService).delete(userId, commentId);
  }

  @Mutation(() => LikeStateType, { description: 'Idempotent.' })
  async likeComment(@Args() { commentId }: CommentIdArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    await ctx.services.rateLimits.consume('likes', userId);
    return ctx.services.get(CommentsService).like(userId, commentId);
  }

  @Mutation(() => LikeStateType, { description: 'Idempotent.' })
  async unlikeComment(@Args() { commentId }: CommentIdArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    await ctx.services.rateLimits.consume('likes', userId);
    return ctx.services.get(CommentsService).unlike(userId, commentId);
  }

  @FieldResolver(() => Boolean, { nullable: true, description: 'Whether the caller likes it; null when anonymous.' })
  async likedByMe(@Root() c: CommentView, @Ctx() ctx: GraphQLContext): Promise<boolean | null> {
    const viewer = await ctx.auth.optionalUser();
    return viewer ? ctx.loaders.get(commentsLoaders).likedBy(viewer.userId).load(c.id) : null;
  }
}
