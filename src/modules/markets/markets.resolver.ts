import { Args, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { AppError } from '../../errors/app-error';
import { ChartArgs } from '../charts/charts.inputs';
import type { MarketChartView } from '../charts/charts.models';
import { MarketChartType } from '../charts/charts.types';
import { PublicRead } from '../../graphql/public-reads';
import { CATALOG_CHANGED_TOPIC, type EventView, type MarketView } from '../events/events.models';
import { EventType, MarketType } from '../events/events.types';
import { TradeType } from '../trades/trades.types';
import { rateLimitSubject } from '../../auth/rate-limit-subject';
import { VENUE_READS_POLICY } from '../../graphql/venue-read-limit';
import { HoldersArgs, MarketRefArgs, MarketTradesArgs, OrderBookArgs, OrderBooksArgs } from './markets.inputs';
import { MARKETS_LIMITS } from './markets.limits';
import type { CounterpartView, HolderSummaryView, HoldersView, OrderBookView, TradePageView } from './markets.models';
import {
  HolderSummaryType,
  MarketCounterpartType,
  MarketHoldersType,
  MarketTradePageType,
  OrderBookType,
} from './markets.types';
import { HistoryService } from '../charts/charts.service';
import { eventsLoaders } from '../events/events.loaders';
import { marketsLoaders } from './markets.loaders';
import { MarketsService } from './markets.service';

/**
 * The market screens as fields of `Market`, so one query composes a whole
 * screen (the REST detail, holders and trades routes run such queries).
 */
@Resolver(() => MarketType)
export class MarketScreensResolver {
  @Query(() => MarketType, { description: 'One venue market of the catalog (404 when the catalog does not hold it).' })
  @PublicRead(CATALOG_CHANGED_TOPIC)
  async market(@Args() { venue, marketId }: MarketRefArgs, @Ctx() ctx: GraphQLContext): Promise<MarketView> {
    const market = await ctx.loaders.get(marketsLoaders).marketById.load(`${venue}:${marketId}`);
    if (!market) throw AppError.notFound(`market ${venue}:${marketId}`);
    return market;
  }

  @Query(() => [OrderBookType], {
    nullable: 'items',
    description:
      `The current YES books of up to ${MARKETS_LIMITS.orderBooks.max} markets, in the order asked: each the book ` +
      "a venue stream keeps when one follows the market, else the venue's (shared by every caller for " +
      '`VENUE_READ_CACHE_MS`). A market that fails is null, with its error (`path` [orderBooks, index]).',
  })
  orderBooks(
    @Args() { markets, depth }: OrderBooksArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<(OrderBookView | AppError)[]> {
    // Each venue read beyond the first (which the field itself counts) counts against the caller's venue-read limit.
    const admit = async () => {
      const { venueSources, rateLimits } = ctx.services;
      if (venueSources.venue_a !== 'live' && venueSources.venue_b !== 'live') return;
      await rateLimits.consume(VENUE_READS_POLICY, await rateLimitSubject(ctx));
    };
    return ctx.services.get(MarketsService).orderBooks(markets, depth, admit);
  }

  @FieldResolver(() => EventType, { description: 'The core event.' })
  @PublicRead(CATALOG_CHANGED_TOPIC)
  async event(@Root() market: MarketView, @Ctx() ctx: GraphQLContext): Promise<EventView> {
    const event = await ctx.loaders.get(marketsLoaders).eventById.load(market.eventId);
    if (!event) throw AppError.notFound(`event ${market.eventId}`);
    return event;
  }

  @FieldResolver(() => OrderBookType, { description: "The venue's current YES book." })
  orderBook(
    @Root() market: MarketView,
    @Args() { depth }: OrderBookArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<OrderBookView> {
    return ctx.services.get(MarketsService).orderBook(market, depth);
  }

  @FieldResolver(() => MarketTradePageType, { description: 'Public trades on the venue, newest first.' })
  trades(
    @Root() market: MarketView,
    @Args() { limit, offset }: MarketTradesArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TradePageView> {
    return ctx.services.get(MarketsService).trades(market, limit, offset);
  }

  @FieldResolver(() => MarketHoldersType, {
    description: 'Largest holders (venue_a wallets; venue_b: none, with the reason).',
  })
  holders(
    @Root() market: MarketView,
    @Args() { limit }: HoldersArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<HoldersView> {
    return ctx.services.get(MarketsService).holders(market, limit);
  }

  @FieldResolver(() => HolderSummaryType)
  holderSummary(@Root() market: MarketView, @Ctx() ctx: GraphQLContext): Promise<HolderSummaryView> {
    return ctx.services.get(MarketsService).holderSummary(market);
  }

  @FieldResolver(() => MarketChartType, {
    description: 'The newest `points` buckets of `interval`, ending now or at the close.',
  })
  chart(
    @Root() market: MarketView,
    @Args() { points, interval }: ChartArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<MarketChartView> {
    return ctx.services.get(HistoryService).marketChart(market, points, interval);
  }

  @FieldResolver(() => MarketCounterpartType, {
    nullable: true,
    description:
      'The matching market on the other venue (same core event, most similar question); null when there is none.',
  })
  @PublicRead(CATALOG_CHANGED_TOPIC)
  async counterpart(@Root() market: MarketView, @Ctx() ctx: GraphQLContext): Promise<CounterpartView | null> {
    const siblings = await ctx.loaders.get(eventsLoaders).marketsByEventId.load(market.eventId);
    return ctx.services.get(MarketsService).counterpart(market, siblings);
  }
}

@Resolver(() => TradeType)
export class TradeMarketResolver {
  @FieldResolver(() => MarketType, { nullable: true, description: 'The market traded, when the catalog holds it.' })
  market(@Root() trade: TradeType, @Ctx() ctx: GraphQLContext): Promise<MarketView | null> {
    return ctx.loaders.get(marketsLoaders).marketById.load(`${trade.venue}:${trade.marketId}`);
  }
}
