import { ArrayMaxSize, ArrayMinSize, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { Args, ArgsType, Ctx, Field, FieldResolver, InputType, Int, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { VenueEnum } from '../../graphql/enums';
import { CommentType } from '../comments/comments.types';
import { EventType } from '../events/events.types';
import { LeaderboardRowType } from './leaderboard.types';
import { FRIENDS_TRADED_MAX_MARKETS } from './social.service';
import { FriendsTradedMarketType, SocialOverviewType } from './social.types';

@ArgsType()
export class OverviewArgs {
  @Field(() => Int, { defaultValue: 10, description: 'Rows per part, 1..50.' })
  @Min(1)
  @Max(50)
  size: number;
}

@InputType('MarketRefInput')
export class MarketRefInput {
  @Field(() => VenueEnum)
  venue: VenueEnum;

  @Field()
  @MaxLength(200)
  marketId: string;
}

@ArgsType()
export class FriendsTradedArgs {
  @Field(() => [MarketRefInput])
  @ArrayMinSize(1)
  @ArrayMaxSize(FRIENDS_TRADED_MAX_MARKETS)
  @ValidateNested({ each: true })
  markets: MarketRefInput[];
}

@Resolver(() => SocialOverviewType)
export class SocialResolver {
  @Query(() => SocialOverviewType, { description: 'The public discovery hub in one query.' })
  socialOverview(@Args() { size }: OverviewArgs): SocialOverviewType {
    return { size };
  }

  @FieldResolver(() => [LeaderboardRowType], { description: 'Top traders by volume.' })
  async topTraders(@Root() o: SocialOverviewType, @Ctx() ctx: GraphQLContext) {
    return (await ctx.services.leaderboard.leaderboard('total_volume', o.size, 0)).data;
  }

  @FieldResolver(() => [EventType], { description: 'The most active events (24 h volume).' })
  async hotEvents(@Root() o: SocialOverviewType, @Ctx() ctx: GraphQLContext) {
    return (await ctx.services.events.list({ page: 1, pageSize: o.size })).data;
  }

  @FieldResolver(() => [CommentType], { description: 'Comment threads with the most engagement this week.' })
  activeComments(@Root() o: SocialOverviewType, @Ctx() ctx: GraphQLContext) {
    return ctx.services.social.activeComments(o.size);
  }

  @Query(() => [FriendsTradedMarketType], {
    description: 'Which followed traders hold positions on the given markets.',
  })
  async friendsTraded(@Args() { markets }: FriendsTradedArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.social.friendsTraded(userId, markets);
  }
}
