import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { CostRundownArgs, RouteInput } from './routing.inputs';
import type { CostRundownView, RouteIntentView } from './routing.models';
import { CostRundownType, RouteIntentType } from './routing.types';
import { RoutingService } from './routing.service';

@Resolver()
export class RoutingResolver {
  @Query(() => CostRundownType, {
    description:
      'Cost of an order on every open market of a core event, both venues and outcomes, with the best venue ' +
      'per question.',
  })
  costRundown(@Args() a: CostRundownArgs, @Ctx() ctx: GraphQLContext): Promise<CostRundownView> {
    return ctx.services.get(RoutingService).costRundown({
      coreId: a.coreId,
      size: a.size ?? undefined,
      amountUsd: a.amountUsd ?? undefined,
      side: a.side,
    });
  }

  @Mutation(() => RouteIntentType, {
    description: 'Pick the venue with the best all-in price (or the given venue/market) and store a quoted intent.',
  })
  async createRoute(
    @Arg('input', () => RouteInput) input: RouteInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<RouteIntentView> {
    // The route is public (the body names the user): intents are counted per client.
    await ctx.services.rateLimits.consume('routeIntents', ctx.clientId);
    return ctx.services.get(RoutingService).route({
      coreId: input.coreId,
      userId: input.userId,
      accountId: input.accountId,
      size: input.size ?? undefined,
      venue: input.venue ?? undefined,
      marketId: input.marketId ?? undefined,
      side: input.side ?? undefined,
      outcome: input.outcome ?? undefined,
    });
  }
}
