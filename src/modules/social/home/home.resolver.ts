import { Args, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../../context';
import { EventType } from '../../events/events.types';
import { PortfolioSummaryType } from '../../portfolio/portfolio-summary.types';
import { HOME_LIMITS } from './home.limits';
import { HomeActivityType, HomeType } from './home.types';
import { HomeArgs } from './home.inputs';
import { PortfolioValuationService } from '../../portfolio/portfolio-valuation.service';
import { portfolioLoaders } from '../../portfolio/portfolio.loaders';
import { HomeService } from './home.service';

@Resolver(() => HomeType)
export class HomeResolver {
  @Query(() => HomeType, { description: "The caller's home screen in one query (bearer)." })
  async home(@Args() a: HomeArgs, @Ctx() ctx: GraphQLContext): Promise<HomeType> {
    const { userId } = await ctx.auth.requireUser();
    return { userId, category: a.category ?? null };
  }

  @FieldResolver(() => [HomeActivityType], {
    description: `Newest trades of the followed traders (${HOME_LIMITS.activity}).`,
  })
  activity(@Root() h: HomeType, @Ctx() ctx: GraphQLContext) {
    return ctx.services.get(HomeService).activity(h.userId, h.category ?? undefined);
  }

  @FieldResolver(() => [EventType], {
    description: `The most active events (${HOME_LIMITS.trending}, 24 h volume order).`,
  })
  trending(@Root() h: HomeType, @Ctx() ctx: GraphQLContext) {
    return ctx.services.get(HomeService).trending(h.category ?? undefined);
  }

  @FieldResolver(() => PortfolioSummaryType, { description: "The caller's positions summary (the portfolio's)." })
  portfolio(@Root() h: HomeType, @Ctx() ctx: GraphQLContext) {
    return ctx.services
      .get(PortfolioValuationService)
      .summary({ userId: h.userId, mode: 'live' }, ctx.loaders.get(portfolioLoaders));
  }
}
