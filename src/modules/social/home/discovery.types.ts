import { Field, Float, ObjectType } from 'type-graphql';
import { OutcomeEnum, VenueEnum } from '../../../graphql/enums';
import type { FriendHolding, FriendsTradedMarket } from './discovery.service';

/** The discovery hub; its parts resolve as fields so one query fetches the screen. */
@ObjectType('SocialOverview', { description: 'Public discovery hub: top traders, hot events, active comments.' })
export class SocialOverviewType {
  /** How many rows each part lists. */
  size: number;
}

@ObjectType('FriendHolding')
export class FriendHoldingType implements FriendHolding {
  @Field()
  traderId: string;
  @Field(() => OutcomeEnum)
  outcome: FriendHolding['outcome'];
  @Field(() => Float, { description: 'Contracts held (from public trades).' })
  size: number;
  @Field(() => Float, { nullable: true })
  avgPrice: number | null;
}

@ObjectType('FriendsTradedMarket')
export class FriendsTradedMarketType implements FriendsTradedMarket {
  @Field(() => VenueEnum)
  venue: FriendsTradedMarket['venue'];
  @Field()
  marketId: string;
  @Field(() => [FriendHoldingType], { description: 'Followed traders holding a position, largest first.' })
  traders: FriendHolding[];
}
