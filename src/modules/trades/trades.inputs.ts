import { MaxLength } from 'class-validator';
import { ArgsType, Field } from 'type-graphql';
import { VenueEnum } from '../../graphql/enums';
import { type Venue } from '../../venues/venue.models';

@ArgsType()
export class TradesSubscriptionArgs {
  @Field(() => VenueEnum, { nullable: true })
  venue?: Venue;

  @Field(() => String, { nullable: true, description: "A venue's market id." })
  @MaxLength(200)
  marketId?: string;
}
