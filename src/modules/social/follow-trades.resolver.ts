import { IsIn, IsInt, IsOptional, Max, MaxLength, Min } from 'class-validator';
import { Args, ArgsType, Ctx, Field, Int, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { HISTORY_INTERVALS, HISTORY_LIMITS } from '../charts/charts.limits';
import { FollowTradesType } from './follow-trades.types';
import { FOLLOW_TRADES_LIMITS } from './social.limits';

const { time } = HISTORY_LIMITS;
const { topN } = FOLLOW_TRADES_LIMITS;
const timeMessage = `must be an integer from ${time.min} to ${time.max} (unix seconds)`;
const topNMessage = `must be an integer from ${topN.min} to ${topN.max}`;

/** The history arguments (same defaults and bounds) plus `topN`. */
@ArgsType()
export class FollowTradesArgs {
  @Field({ description: 'Event id or slug.' })
  @MaxLength(200)
  eventId: string;

  @Field(() => String, { defaultValue: HISTORY_LIMITS.defaultInterval, description: HISTORY_INTERVALS.join(', ') })
  @IsIn(HISTORY_INTERVALS, { message: `must be one of ${HISTORY_INTERVALS.join(', ')}` })
  interval: string;

  @Field(() => Int, {
    nullable: true,
    description: 'Unix seconds; default: now minus the lookback window of the interval.',
  })
  @IsOptional()
  @IsInt({ message: timeMessage })
  @Min(time.min, { message: timeMessage })
  @Max(time.max, { message: timeMessage })
  from?: number;

  @Field(() => Int, { nullable: true, description: 'Unix seconds; default: now.' })
  @IsOptional()
  @IsInt({ message: timeMessage })
  @Min(time.min, { message: timeMessage })
  @Max(time.max, { message: timeMessage })
  to?: number;

  @Field(() => Int, { defaultValue: topN.default, description: `Traders kept per bubble, ${topN.min}..${topN.max}.` })
  @Min(topN.min, { message: topNMessage })
  @Max(topN.max, { message: topNMessage })
  topN: number;
}

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
    return ctx.services.followTrades.overlay(userId, a.eventId, a);
  }
}
