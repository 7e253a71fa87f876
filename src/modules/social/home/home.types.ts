import { Field, ID, ObjectType } from 'type-graphql';
import { TradeFieldsType } from '../../trades/trades.types';
import type { HomeActivityView } from './home.service';

/** The home screen; its parts resolve as fields so one query fetches the screen. */
@ObjectType('Home', {
  description: "The caller's home screen: followed traders' activity, trending events, the positions summary.",
})
export class HomeType {
  userId: string;
  @Field(() => String, { nullable: true, description: 'The category filter applied to activity and trending events.' })
  category: string | null;
}

@ObjectType('HomeActivity', { description: "A followed trader's trade." })
export class HomeActivityType extends TradeFieldsType implements HomeActivityView {
  @Field(() => ID, { description: '`venue:venueTradeId` (the `tradeId` copytrading takes).' })
  id: string;
  @Field()
  traderId: string;
  @Field({ description: "The venue's market id." })
  marketId: string;
  @Field(() => String, { nullable: true })
  marketTitle: string | null;
  @Field(() => String, { nullable: true, description: 'The core event, when the market is in the catalog.' })
  eventId: string | null;
  @Field(() => String, { nullable: true })
  eventTitle: string | null;
  @Field(() => String, { nullable: true })
  category: string | null;
}
