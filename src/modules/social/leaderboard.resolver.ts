import { Max, MaxLength, Min } from 'class-validator';
import { Args, ArgsType, Ctx, Field, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { VenueEnum } from '../../graphql/enums';
import { LEADERBOARD_ME_LIMITS } from './social.limits';
import {
  LeaderboardMeType,
  LeaderboardPageType,
  LeaderboardRefreshType,
  LeaderboardSortEnum,
  TraderProfileType,
  TraderTradePageType,
} from './leaderboard.types';

export const LEADERBOARD_LIMITS = {
  limit: { min: 1, max: 200, default: 50 },
  offset: { min: 0, max: 100_000 },
} as const;
const L = LEADERBOARD_LIMITS;
const N = LEADERBOARD_ME_LIMITS.neighbours;

@ArgsType()
export class PagingArgs {
  @Field(() => Int, { defaultValue: L.limit.default, description: `${L.limit.min}..${L.limit.max}` })
  @Min(L.limit.min)
  @Max(L.limit.max)
  limit: number;

  @Field(() => Int, { defaultValue: 0 })
  @Min(L.offset.min)
  @Max(L.offset.max)
  offset: number;
}

@ArgsType()
export class LeaderboardArgs extends PagingArgs {
  @Field(() => LeaderboardSortEnum, { defaultValue: LeaderboardSortEnum.total_volume })
  sortBy: LeaderboardSortEnum;

  @Field(() => VenueEnum, { nullable: true })
  venue?: VenueEnum;
}

@ArgsType()
export class LeaderboardMeArgs {
  @Field(() => LeaderboardSortEnum, { defaultValue: LeaderboardSortEnum.total_volume })
  sortBy: LeaderboardSortEnum;

  @Field(() => Int, { defaultValue: N.default, description: `Rows above and below the caller, ${N.min}..${N.max}.` })
  @Min(N.min)
  @Max(N.max)
  neighbours: number;
}

@ArgsType()
export class TraderArgs {
  @Field(() => VenueEnum)
  venue: VenueEnum;

  @Field()
  @MaxLength(100)
  traderId: string;
}

@ArgsType()
export class TraderTradesArgs extends PagingArgs {
  @Field(() => VenueEnum)
  venue: VenueEnum;

  @Field()
  @MaxLength(100)
  traderId: string;
}

@Resolver()
export class LeaderboardResolver {
  @Query(() => LeaderboardPageType, { description: 'Traders ranked by a figure, optionally on one venue.' })
  leaderboard(@Args() a: LeaderboardArgs, @Ctx() ctx: GraphQLContext) {
    return ctx.services.leaderboard.leaderboard(a.sortBy, a.limit, a.offset, a.venue);
  }

  @Query(() => LeaderboardMeType, {
    description: "The caller's rank and neighbours (their traders: linked polygon wallets on venue_a).",
  })
  async leaderboardMe(@Args() a: LeaderboardMeArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.leaderboard.me(userId, a.sortBy, a.neighbours);
  }

  @Query(() => TraderProfileType)
  trader(@Args() a: TraderArgs, @Ctx() ctx: GraphQLContext) {
    return ctx.services.leaderboard.profile(a.venue, a.traderId);
  }

  @Query(() => TraderTradePageType, { description: "A trader's public trades, newest first." })
  traderTrades(@Args() a: TraderTradesArgs, @Ctx() ctx: GraphQLContext) {
    return ctx.services.leaderboard.trades(a.venue, a.traderId, a.limit, a.offset);
  }

  @Mutation(() => LeaderboardRefreshType, {
    description: 'Recomputes every trader from the trades (bearer + X-Admin-Token).',
  })
  async refreshLeaderboard(@Ctx() ctx: GraphQLContext) {
    await ctx.auth.requireUser();
    ctx.auth.requireHeaderToken('admin');
    const r = await ctx.services.traderStats.rebuild();
    return { ...r, refreshedAt: new Date() };
  }
}
