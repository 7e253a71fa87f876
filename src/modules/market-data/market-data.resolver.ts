import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { EventListArgs, MarketListArgs, VenueMarketArgs } from './market-data.inputs';
import {
  EventCategoryType,
  MarketDataEventPageType,
  MarketDataMarketPageType,
  MarketDataMarketType,
} from './market-data.types';
import { MarketDataService } from './market-data.service';
import { definedOnly } from '../../graphql/defined-only';

@Resolver()
export class MarketDataResolver {
  @Query(() => MarketDataMarketPageType, {
    description: 'Venue markets, filtered, by identifier (API key with `read`).',
  })
  async marketDataMarkets(@Args() args: MarketListArgs, @Ctx() ctx: GraphQLContext) {
    await ctx.apiKey.require('read');
    return ctx.services.get(MarketDataService).markets(definedOnly(args));
  }

  @Query(() => MarketDataMarketType, { description: 'One venue market by venue and native id (API key with `read`).' })
  async venueMarket(@Args() { venue, marketId }: VenueMarketArgs, @Ctx() ctx: GraphQLContext) {
    await ctx.apiKey.require('read');
    return ctx.services.get(MarketDataService).market(venue, marketId);
  }

  @Query(() => MarketDataEventPageType, { description: 'Core events, by identifier (API key with `read`).' })
  async marketDataEvents(@Args() args: EventListArgs, @Ctx() ctx: GraphQLContext) {
    await ctx.apiKey.require('read');
    return ctx.services.get(MarketDataService).events(definedOnly(args));
  }

  @Query(() => [EventCategoryType], { description: 'Event counts per category (API key with `read`).' })
  async eventCategories(@Ctx() ctx: GraphQLContext) {
    await ctx.apiKey.require('read');
    return ctx.services.get(MarketDataService).categories();
  }
}
