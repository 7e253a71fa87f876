import { Field, Float, ID, ObjectType } from 'type-graphql';
import { OutcomeEnum, TradeSideEnum, VenueEnum } from '../../graphql/enums';
import type { TradeEvent } from './trades.models';

@ObjectType('Trade', { description: 'A public trade on a venue.' })
export class TradeType {
  @Field(() => ID, { description: '`venue:venueTradeId`.' })
  id: string;
  @Field(() => VenueEnum)
  venue: TradeEvent['venue'];
  @Field({ description: "The venue's market id." })
  marketId: string;
  @Field(() => ID, { nullable: true, description: 'The core event, when the market is known.' })
  eventId: string | null;
  @Field(() => String, { nullable: true, description: 'Trader wallet on venue_a; venue_b publishes none.' })
  traderId: string | null;
  @Field(() => TradeSideEnum)
  side: TradeEvent['side'];
  @Field(() => OutcomeEnum)
  outcome: TradeEvent['outcome'];
  @Field(() => Float)
  price: number;
  @Field(() => Float)
  size: number;
  @Field()
  filledAt: Date;
}
