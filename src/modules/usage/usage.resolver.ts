import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { UsageArgs } from './usage.inputs';
import { UsageStatsType } from './usage.types';
import { UsageService } from './usage.service';

@Resolver()
export class UsageResolver {
  @Query(() => UsageStatsType, {
    description: "Usage of the calling key's owner, per endpoint and day (API key with `read`).",
  })
  async apiUsage(@Args() { days }: UsageArgs, @Ctx() ctx: GraphQLContext) {
    const me = await ctx.apiKey.require('read');
    return ctx.services.get(UsageService).report(me.owner, days);
  }
}
