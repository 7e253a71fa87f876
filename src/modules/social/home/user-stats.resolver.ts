import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../../context';
import { ProductMetricsType } from './product-metrics.types';
import { UserStatsType } from './user-stats.types';
import { UserStatsArgs } from './home.inputs';
import { ProductMetricsService } from './product-metrics.service';
import { UserStatsService } from './user-stats.service';

@Resolver()
export class UserStatsResolver {
  @Query(() => UserStatsType, { description: "The caller's public stats." })
  async myStats(@Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(UserStatsService).stats(userId);
  }

  @Query(() => UserStatsType, { description: "Any user's public stats (zeros for a user with no activity)." })
  userStats(@Args() a: UserStatsArgs, @Ctx() ctx: GraphQLContext) {
    return ctx.services.get(UserStatsService).stats(a.userId);
  }

  @Query(() => ProductMetricsType, { description: 'Product metrics (bearer + X-Admin-Token).' })
  async productMetrics(@Ctx() ctx: GraphQLContext) {
    await ctx.auth.requireUser();
    ctx.auth.requireHeaderToken('admin');
    return ctx.services.get(ProductMetricsService).metrics();
  }
}
