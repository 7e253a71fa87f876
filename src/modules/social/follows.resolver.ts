import { Max, MaxLength, Min } from 'class-validator';
import { Args, ArgsType, Ctx, Field, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { VenueEnum } from '../../graphql/enums';
import { FollowPageType, FollowType, UnfollowResultType } from './follows.types';

export const FOLLOW_LIMITS = { limit: { min: 1, max: 200, default: 50 }, offset: { min: 0, max: 100_000 } } as const;

@ArgsType()
export class FollowArgs {
  @Field(() => VenueEnum)
  venue: VenueEnum;

  @Field()
  @MaxLength(100)
  traderId: string;
}

@ArgsType()
export class FollowsListArgs {
  @Field(() => Int, { defaultValue: FOLLOW_LIMITS.limit.default })
  @Min(FOLLOW_LIMITS.limit.min)
  @Max(FOLLOW_LIMITS.limit.max)
  limit: number;

  @Field(() => Int, { defaultValue: 0 })
  @Min(FOLLOW_LIMITS.offset.min)
  @Max(FOLLOW_LIMITS.offset.max)
  offset: number;
}

@Resolver()
export class FollowsResolver {
  @Query(() => FollowPageType, { description: "The caller's follows, newest first." })
  async follows(@Args() a: FollowsListArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.follows.list(userId, a.limit, a.offset);
  }

  @Mutation(() => FollowType, { description: 'Follow a trader (idempotent).' })
  async follow(@Args() a: FollowArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.follows.follow(userId, a.venue, a.traderId);
  }

  @Mutation(() => UnfollowResultType, { description: 'Unfollow a trader (idempotent).' })
  async unfollow(@Args() a: FollowArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.follows.unfollow(userId, a.venue, a.traderId);
  }
}
