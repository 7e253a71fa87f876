import { Field, Float, InputType } from 'type-graphql';
import { OutcomeEnum, TradeSideEnum, VenueEnum } from '../../graphql/enums';
import { ChainEnum } from '../wallets/wallets.types';
import { type ExecutionMode, EXECUTION_LIMITS as L, type OrderKind } from './execution.limits';
import { ExecutionModeEnum, OrderTypeEnum } from './execution.types';
import { type Side, type OutcomeSide, type Venue } from '../../venues/venue.models';
import { type Chain } from '../wallets/wallets.limits';

/** The `/execute` body. Range and format rules are checked by the service (one rule for REST and GraphQL). */
@InputType('ExecuteInput')
export class ExecuteInput {
  @Field({ description: "The venue's market id (or `venue:marketId`)." })
  marketId: string;

  @Field({ nullable: true, description: "The venue's market id, when `marketId` is not it." })
  venueMarketId?: string;

  @Field(() => TradeSideEnum)
  side: Side;

  @Field(() => OutcomeEnum)
  outcome: OutcomeSide;

  @Field(() => Float, { description: `Contracts, ${L.size.min}..${L.size.max} (venue_a: 2 decimals; venue_b: whole).` })
  size: number;

  @Field(() => Float, {
    nullable: true,
    description: '0..1; alone it makes a limit order; not allowed with orderType market (400).',
  })
  limitPrice?: number;

  @Field(() => OrderTypeEnum, {
    nullable: true,
    description: 'Default: limit with a limitPrice, else market. `limit` needs a limitPrice; `market` takes none.',
  })
  orderType?: OrderKind;

  @Field(() => ExecutionModeEnum, { nullable: true, description: 'Default simulation.' })
  mode?: ExecutionMode;

  @Field(() => VenueEnum, { nullable: true })
  venue?: Venue;

  @Field({ nullable: true, description: 'When given, the market must belong to this core event.' })
  coreId?: string;

  @Field(() => ChainEnum, { nullable: true })
  fundingSourceChain?: Chain;

  @Field({ nullable: true })
  fundingSourceCurrency?: string;

  @Field({ nullable: true, description: 'Amount in atomic units (a non-negative integer as a string).' })
  fundingAmountAtomic?: string;

  @Field({ nullable: true })
  referrerId?: string;

  @Field({ nullable: true })
  eventTitle?: string;

  @Field({ nullable: true })
  marketTitle?: string;

  @Field({ nullable: true })
  eventSlug?: string;

  @Field({ nullable: true })
  category?: string;
}

/** The optional body of a position sell. */
@InputType('SellPositionInput')
export class SellPositionInput {
  @Field(() => Float, {
    nullable: true,
    description: "Contracts, at most the position size (default: all of it, at the position's exact size).",
  })
  size?: number;

  @Field(() => OrderTypeEnum, {
    nullable: true,
    description: 'Default: limit with a limitPrice, else market. `market` takes no limitPrice.',
  })
  orderType?: OrderKind;

  @Field(() => Float, {
    nullable: true,
    description: '0..1; alone it makes a limit order; not allowed with orderType market (400).',
  })
  limitPrice?: number;

  @Field(() => ExecutionModeEnum, { nullable: true, description: 'Default simulation.' })
  mode?: ExecutionMode;
}
