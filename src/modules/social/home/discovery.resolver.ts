import { Args, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../../context';
import { CommentType } from '../../comments/comments.types';
import { EventType } from '../../events/events.types';
import { LeaderboardRowType } from '../traders/leaderboard.types';
import { FriendsTradedMarketType, SocialOverviewType } from './discovery.types';
import { OverviewArgs, FriendsTradedArgs } from './home.inputs';
import { EventsService } from '../../events/events.service';
import { LeaderboardService } from '../traders/leaderboard.service';
import { DiscoveryService } from './discovery.service';

@Resolver(() => SocialOverviewType)
export class DiscoveryResolver {
  @Query(() => SocialOverviewType, { description: 'The public discovery hub in one query.' })
  socialOverview(@Args() { size }: OverviewArgs): SocialOverviewType {
    return { size };
  }

  @FieldResolver(() => [LeaderboardRowType], { description: 'Top traders by volume.' })
  async topTraders(@Root() o: SocialOverviewType, @Ctx() ctx: GraphQLContext) {
    return (await ctx.services.get(LeaderboardService).leaderboard('total_volume', o.size, 0)).data;
  }

  @FieldResolver(() => [EventType], { description: 'The most active events (24 h volume).' })
  async hotEvents(@Root() o: SocialOverviewType, @Ctx() ctx: GraphQLContext) {
    return (await ctx.services.get(EventsService).list({ page: 1, pageSize: o.size })).data;
  }

  @FieldResolver(() => [CommentType], { description: 'Comment threads with the most engagement this week.' })
  activeComments(@Root() o: SocialOverviewType, @Ctx() ctx: GraphQLContext) {
    return ctx.services.get(DiscoveryService).activeComments(o.size);
  }

  @Query(() => [FriendsTradedMarketType], {
    description: 'Which followed traders hold positions on the given markets.',
  })
  async friendsTraded(@Args() { markets }: FriendsTradedArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(DiscoveryService).friendsTraded(userId, markets);
  }
}
