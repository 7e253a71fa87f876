import { Args, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { mapFilter } from '../../graphql/async-iterators';
import { TradesSubscriptionArgs } from './trades.inputs';
import { TRADES_TOPIC, type TradeEvent } from './trades.models';
import { TradeType } from './trades.types';

type TradeSubscribeData = SubscribeResolverData<unknown, TradesSubscriptionArgs, GraphQLContext>;

@Resolver(() => TradeType)
export class TradesResolver {
  @Subscription(() => TradeType, {
    description: 'Live public trades on both venues, optionally for one venue or market.',
    subscribe: ({ args, context }: TradeSubscribeData) =>
      mapFilter(
        context.services.infra.pubsub.iterate<TradeEvent>(TRADES_TOPIC),
        (t) =>
          (args.venue === undefined || t.venue === args.venue) &&
          (args.marketId === undefined || t.marketId === args.marketId),
        (t) => t,
      ),
  })
  trades(@Root() trade: TradeEvent, @Args() _args: TradesSubscriptionArgs): TradeType {
    return { ...trade, filledAt: new Date(trade.filledAt) };
  }
}
