import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../../context';
import { FollowPageType, FollowType, UnfollowResultType } from './follows.types';
import { FollowsListArgs, FollowArgs } from './follows.inputs';
import { FollowsService } from './follows.service';

@Resolver()
export class FollowsResolver {
  @Query(() => FollowPageType, { description: "The caller's follows, newest first." })
  async follows(@Args() a: FollowsListArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(FollowsService).list(userId, a.limit, a.offset);
  }

  @Mutation(() => FollowType, { description: 'Follow a trader (idempotent).' })
  async follow(@Args() a: FollowArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    await ctx.services.rateLimits.consume('follows', userId);
    return ctx.services.get(FollowsService).follow(userId, a.venue, a.traderId);
  }

  @Mutation(() => UnfollowResultType, { description: 'Unfollow a trader (idempotent).' })
  async unfollow(@Args() a: FollowArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    await ctx.services.rateLimits.consume('follows', userId);
    return ctx.services.get(FollowsService).unfollow(userId, a.venue, a.traderId);
  }
}
