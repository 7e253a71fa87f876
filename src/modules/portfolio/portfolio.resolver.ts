import { Args, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { ActivityArgs, PortfolioModeArgs, PortfolioPageArgs } from './portfolio.inputs';
import type { OffsetPage, TradeView } from './portfolio.models';
import {
  PortfolioAnalyticsType,
  PortfolioBalancesType,
  PortfolioPositionsType,
  PortfolioSummaryType,
  PortfolioType,
} from './portfolio-summary.types';
import type {
  AnalyticsView,
  BalancesView,
  OpenPositionsView,
  PortfolioRoot,
  SummaryView,
} from './portfolio-valuation.models';
import { PortfolioTradePageType, PortfolioTradeType } from './portfolio.types';
import { PortfolioValuationService } from './portfolio-valuation.service';
import { portfolioLoaders } from './portfolio.loaders';
import { TradeHistoryService } from './trade-history.service';

/**
 * The caller's portfolio as one object whose fields are the parts of the
 * portfolio screen: one query composes the overview, and each REST portfolio
 * route selects one field. The root carries the authenticated user, so every
 * field reads that user's rows only; related rows and marks load through the
 * request's loaders, shared between fields.
 */
@Resolver(() => PortfolioType)
export class PortfolioResolver {
  @Query(() => PortfolioType, { description: "The caller's portfolio (bearer)." })
  async portfolio(@Args() { mode }: PortfolioModeArgs, @Ctx() ctx: GraphQLContext): Promise<PortfolioRoot> {
    const { userId } = await ctx.auth.requireUser();
    return { userId, asOf: new Date(), mode };
  }

  @FieldResolver(() => PortfolioBalancesType, {
    description: 'Ledger balance, on-chain wallet value and open positions value.',
  })
  balances(@Root() root: PortfolioRoot, @Ctx() ctx: GraphQLContext): Promise<BalancesView> {
    return ctx.services.get(PortfolioValuationService).balances(root, ctx.loaders.get(portfolioLoaders));
  }

  @FieldResolver(() => PortfolioPositionsType, {
    description: 'Open positions across the service and linked wallets, with marks.',
  })
  positions(@Root() root: PortfolioRoot, @Ctx() ctx: GraphQLContext): Promise<OpenPositionsView> {
    return ctx.services.get(PortfolioValuationService).openPositions(root, ctx.loaders.get(portfolioLoaders));
  }

  @FieldResolver(() => PortfolioSummaryType, {
    description: 'Realized and unrealized PnL, fees, exposure by venue and category.',
  })
  summary(@Root() root: PortfolioRoot, @Ctx() ctx: GraphQLContext): Promise<SummaryView> {
    return ctx.services.get(PortfolioValuationService).summary(root, ctx.loaders.get(portfolioLoaders));
  }

  @FieldResolver(() => PortfolioAnalyticsType, {
    description: 'Category win rates, exposure and the weekly volume rank.',
  })
  analytics(@Root() root: PortfolioRoot, @Ctx() ctx: GraphQLContext): Promise<AnalyticsView> {
    return ctx.services.get(PortfolioValuationService).analytics(root, ctx.loaders.get(portfolioLoaders));
  }

  @FieldResolver(() => PortfolioTradePageType, {
    description: 'Trades merged across the service and linked wallets, newest first.',
  })
  history(
    @Root() root: PortfolioRoot,
    @Args() { limit, offset }: PortfolioPageArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<OffsetPage<TradeView>> {
    return ctx.services.get(TradeHistoryService).history(root.userId, limit, offset, root.mode);
  }

  @FieldResolver(() => [PortfolioTradeType], { description: 'The newest trades (the history without a total).' })
  recentActivity(
    @Root() root: PortfolioRoot,
    @Args() { limit }: ActivityArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TradeView[]> {
    return ctx.services.get(TradeHistoryService).trades(root.userId, limit, 0, root.mode);
  }
}
