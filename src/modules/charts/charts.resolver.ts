import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import type { EventView } from '../events/events.models';
import { EventType } from '../events/events.types';
import { HistoryArgs } from './charts.inputs';
import type { EventHistoryView } from './charts.models';
import { EventHistoryType } from './charts.types';
import { eventsLoaders } from '../events/events.loaders';
import { HistoryService } from './charts.service';

@Resolver(() => EventType)
export class EventHistoryResolver {
  @FieldResolver(() => EventHistoryType, {
    description:
      "Price history of the event's markets, both venues queried in parallel and merged into one normalized " +
      'candle series per market. 503 when every venue fails.',
  })
  async history(
    @Root() event: EventView,
    @Args() args: HistoryArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<EventHistoryView> {
    const markets = await ctx.loaders.get(eventsLoaders).marketsByEventId.load(event.id);
    return ctx.services.get(HistoryService).eventHistory(event.id, markets, args);
  }
}
