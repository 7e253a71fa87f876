import { ArgsType, Field, Float, InputType, Int } from 'type-graphql';
import { OutcomeEnum, TradeSideEnum, VenueEnum } from '../../graphql/enums';
import { ROUTING_LIMITS as L } from './routing.limits';
import { type Side, type Venue, type OutcomeSide } from '../../venues/venue.models';

/** Range and format rules are checked by the service (one rule for REST and GraphQL). */
@ArgsType()
export class CostRundownArgs {
  @Field({ description: 'Core event id (or slug).' })
  coreId: string;

  @Field(() => Int, { nullable: true, description: `Whole contracts, ${L.size.min}..${L.size.max}; or amountUsd.` })
  size?: number;

  @Field(() => Float, {
    nullable: true,
    description: `USD to spend (buys) or receive (sells), ${L.amountUsd.min}..${L.amountUsd.max}.`,
  })
  amountUsd?: number;

  @Field(() => TradeSideEnum, { defaultValue: TradeSideEnum.buy })
  side: Side;
}

@InputType('RouteInput')
export class RouteInput {
  @Field()
  coreId: string;

  @Field()
  userId: string;

  @Field()
  accountId: string;

  @Field(() => Float, {
    nullable: true,
    description:
      `Contracts, ${L.routeSize.min}..${L.routeSize.max}, at most 2 decimals (default ` + `${L.routeSize.default}).`,
  })
  size?: number;

  @Field(() => VenueEnum, { nullable: true, description: 'Route only to this venue.' })
  venue?: Venue;

  @Field({ nullable: true, description: "Route to this market (the venue's market id): no venue choice." })
  marketId?: string;

  @Field(() => TradeSideEnum, { nullable: true, description: 'Default buy.' })
  side?: Side;

  @Field(() => OutcomeEnum, { nullable: true, description: 'Default yes.' })
  outcome?: OutcomeSide;
}
