import { Field, Float, ID, ObjectType } from 'type-graphql';
import { OutcomeEnum, TradeSideEnum, VenueEnum } from '../../graphql/enums';
import type { OutcomeSide, Side, Venue } from '../../venues/venue.models';
import type { TradeFigures } from './trades.models';

/**
 * The fields every GraphQL view of a public trade declares alike (`Trade`, `TraderTrade`,
 * `HomeActivity`); each adds its id, market id and context with its own wording. Never named in
 * the schema.
 */
@ObjectType()
export abstract class TradeFieldsType implements Omit<TradeFigures, 'id' | 'marketId'> {
  @Field(() => VenueEnum)
  venue: Venue;
  @Field(() => TradeSideEnum)
  side: Side;
  @Field(() => OutcomeEnum)
  outcome: OutcomeSide;
  @Field(() => Float)
  price: number;
  @Field(() => Float)
  size: number;
  @Field()
  filledAt: Date;
}

@ObjectType('Trade', { description: 'A public trade on a venue.' })
export class TradeType extends TradeFieldsType {
  @Field(() => ID, { description: '`venue:venueTradeId`.' })
  id: string;
  @Field({ description: "The venue's market id." })
  marketId: string;
  @Field(() => ID, { nullable: true, description: 'The core event, when the market is known.' })
  eventId: string | null;
  @Field(() => String, { nullable: true, description: 'Trader wallet on venue_a; venue_b publishes none.' })
  traderId: string | null;
}
