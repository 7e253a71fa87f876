import { Arg, Args, Ctx, FieldResolver, Float, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { DiscoverEventsArgs, EventMarketsArgs, ListEventsArgs, MarketFilterArgs } from './events.inputs';
import { PublicRead } from '../../graphql/public-reads';
import { CATALOG_CHANGED_TOPIC, yesPrice, type EventView, type MarketView } from './events.models';
import { EventsService, filterMarkets } from './events.service';
import { EventPageType, EventType, MarketType } from './events.types';
import { eventsLoaders } from './events.loaders';

@Resolver(() => EventType)
export class EventsResolver {
  @Query(() => EventPageType, { description: 'Core events, most active first.' })
  @PublicRead(CATALOG_CHANGED_TOPIC)
  events(@Args() args: ListEventsArgs, @Ctx() ctx: GraphQLContext) {
    return ctx.services.get(EventsService).list(args);
  }

  @Query(() => EventType, { description: 'One core event by id or slug.' })
  @PublicRead(CATALOG_CHANGED_TOPIC)
  event(@Arg('ref', { description: 'Event id or slug.' }) ref: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.get(EventsService).get(ref);
  }

  @Query(() => EventPageType, { description: 'Search, filter and sort events (rate limited per client).' })
  async discoverEvents(@Args() args: DiscoverEventsArgs, @Ctx() ctx: GraphQLContext) {
    await ctx.services.rateLimits.consume('discover', ctx.clientId);
    return ctx.services.get(EventsService).discover(args);
  }

  @Query(() => [MarketType], { description: "An event's markets." })
  @PublicRead(CATALOG_CHANGED_TOPIC)
  eventMarkets(@Args() args: EventMarketsArgs, @Ctx() ctx: GraphQLContext) {
    const { eventId, ...filter } = args;
    return ctx.services.get(EventsService).marketsOf(eventId, filter);
  }

  @FieldResolver(() => [MarketType])
  @PublicRead(CATALOG_CHANGED_TOPIC)
  async markets(@Root() event: EventView, @Args() filter: MarketFilterArgs, @Ctx() ctx: GraphQLContext) {
    return filterMarkets(await ctx.loaders.get(eventsLoaders).marketsByEventId.load(event.id), filter);
  }
}

@Resolver(() => MarketType)
export class MarketFieldsResolver {
  @FieldResolver(() => Float, {
    nullable: true,
    description: 'YES price: the mid when both sides quote, else the last trade.',
  })
  @PublicRead()
  yesPrice(@Root() market: MarketView): number | null {
    return yesPrice(market);
  }
}
