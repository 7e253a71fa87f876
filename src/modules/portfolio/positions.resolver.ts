import { Args, Ctx, FieldResolver, Float, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import type { MarketView } from '../events/events.models';
import { MarketType } from '../events/events.types';
import { MarketPositionsArgs, OrdersArgs, PositionIdArgs, PositionsArgs } from './portfolio.inputs';
import type { FillView, MarkView, OffsetPage, OrderView, PositionView, TradeView } from './portfolio.models';
import {
  MarketPositionsType,
  MarkType,
  OrderFillType,
  OrderPageType,
  OrderType,
  PortfolioTradeType,
  PositionPageType,
  PositionType,
} from './portfolio.types';
import { marketsLoaders } from '../markets/markets.loaders';
import { PortfolioValuationService } from './portfolio-valuation.service';
import { portfolioLoaders } from './portfolio.loaders';
import { PortfolioService } from './portfolio.service';

const marketOf = (ctx: GraphQLContext, r: { venue: string; marketId: string }) =>
  ctx.loaders.get(marketsLoaders).marketById.load(`${r.venue}:${r.marketId}`);

/** The caller's positions, with marks, market and linked orders as loader-backed fields. */
@Resolver(() => PositionType)
export class PositionsResolver {
  @Query(() => PositionPageType, { description: "The caller's service positions, most recently changed first." })
  async positions(@Args() a: PositionsArgs, @Ctx() ctx: GraphQLContext): Promise<OffsetPage<PositionView>> {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(PortfolioService).positionsPage(userId, a.status, a.limit, a.offset, a.mode);
  }

  @Query(() => PositionType, { description: "One of the caller's positions (404 when unknown or someone else's)." })
  async position(@Args() a: PositionIdArgs, @Ctx() ctx: GraphQLContext): Promise<PositionView> {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(PortfolioService).position(userId, a.positionId);
  }

  @Query(() => MarketPositionsType, { description: "The caller's positions in one venue market." })
  async positionsByMarket(@Args() a: MarketPositionsArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return {
      venue: a.venue,
      marketId: a.marketId,
      data: await ctx.services.get(PortfolioService).positionsInMarket(userId, a.venue, a.marketId, a.mode),
    };
  }

  @FieldResolver(() => MarkType, {
    description: "The outcome's mark (live mid, or the last known price when the venue cannot quote).",
  })
  mark(@Root() p: PositionView, @Ctx() ctx: GraphQLContext): Promise<MarkView> {
    return ctx.services.get(PortfolioValuationService).markOf(p, ctx.loaders.get(portfolioLoaders));
  }

  @FieldResolver(() => Float, { nullable: true, description: 'size × mark; null when no price is known.' })
  async marketValue(@Root() p: PositionView, @Ctx() ctx: GraphQLContext): Promise<number | null> {
    return (await ctx.services.get(PortfolioValuationService).valueOf(p, ctx.loaders.get(portfolioLoaders)))
      .marketValue;
  }

  @FieldResolver(() => Float, { nullable: true, description: 'marketValue − costBasis; null when no price is known.' })
  async unrealizedPnl(@Root() p: PositionView, @Ctx() ctx: GraphQLContext): Promise<number | null> {
    return (await ctx.services.get(PortfolioValuationService).valueOf(p, ctx.loaders.get(portfolioLoaders)))
      .unrealizedPnl;
  }

  @FieldResolver(() => MarketType, { nullable: true, description: 'The market, when the catalog holds it.' })
  market(@Root() p: PositionView, @Ctx() ctx: GraphQLContext): Promise<MarketView | null> {
    return marketOf(ctx, p);
  }

  @FieldResolver(() => [OrderType], {
    description: 'Orders on this market outcome, newest first (none for wallet positions).',
  })
  orders(@Root() p: PositionView, @Ctx() ctx: GraphQLContext): Promise<OrderView[]> {
    return ctx.loaders.get(portfolioLoaders).ordersOfPosition.load(p);
  }
}

@Resolver(() => OrderType)
export class OrdersResolver {
  @Query(() => OrderPageType, { description: "The caller's orders, newest first, optionally in one state." })
  async orders(@Args() a: OrdersArgs, @Ctx() ctx: GraphQLContext): Promise<OffsetPage<OrderView>> {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(PortfolioService).ordersPage(userId, a.state, a.limit, a.offset, a.mode);
  }

  @FieldResolver(() => [OrderFillType], { description: 'Fills in sequence.' })
  fills(@Root() o: OrderView, @Ctx() ctx: GraphQLContext): Promise<FillView[]> {
    return ctx.loaders.get(portfolioLoaders).fillsOfOrder.load(o.id);
  }

  @FieldResolver(() => MarketType, { nullable: true })
  market(@Root() o: OrderView, @Ctx() ctx: GraphQLContext): Promise<MarketView | null> {
    return marketOf(ctx, o);
  }
}

@Resolver(() => PortfolioTradeType)
export class PortfolioTradeResolver {
  @FieldResolver(() => MarketType, { nullable: true })
  market(@Root() t: TradeView, @Ctx() ctx: GraphQLContext): Promise<MarketView | null> {
    return marketOf(ctx, t);
  }
}
