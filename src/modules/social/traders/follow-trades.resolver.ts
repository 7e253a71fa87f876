import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../../context';
import { FollowTradesType } from './follow-trades.types';
import { FollowTradesArgs } from './traders.inputs';
import { FollowTradesService } from './follow-trades.service';

@Resolver()
export class FollowTradesResolver {
  @Query(() => FollowTradesType, {
    description:
      "The caller's followed traders' trades on the event's markets as chart bubbles: grouped by candle " +
      'bucket, venue, market, side and outcome, the top N traders by size in each. venue_b bubbles are empty ' +
      '(no trader identity).',
  })
  async followTrades(@Args() a: FollowTradesArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(FollowTradesService).overlay(userId, a.eventId, a);
  }
}
