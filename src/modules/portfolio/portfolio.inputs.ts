import { Max, MaxLength, Min, MinLength } from 'class-validator';
import { ArgsType, Field, ID, Int } from 'type-graphql';
import { VenueEnum } from '../../graphql/enums';
import { OffsetPagingArgs } from '../../graphql/paging';
import { PORTFOLIO_LIMITS as L, type PositionStatus, type OrderState } from './portfolio.limits';
import { ExecutionModeEnum, OrderStateEnum, PositionStatusEnum } from './portfolio.types';
import type { ExecutionMode } from '../execution/execution.limits';
import { type Venue } from '../../venues/venue.models';

const between = (lo: number, hi: number) => ({ message: `must be an integer from ${lo} to ${hi}` });
const idLength = { message: `must be 1 to ${L.id.max} characters` };
const modeField = {
  defaultValue: 'live',
  description: '`live` (the default) or `simulation`: the paper account.',
} as const;

/** Which account a portfolio read shows. */
@ArgsType()
export class PortfolioModeArgs {
  @Field(() => ExecutionModeEnum, modeField)
  mode: ExecutionMode;
}

@ArgsType()
export class PortfolioPageArgs extends OffsetPagingArgs(L, { rangeMessage: true }) {}

@ArgsType()
export class ActivityArgs {
  @Field(() => Int, { defaultValue: L.activity.default, description: `${L.activity.min}..${L.activity.max}` })
  @Min(L.activity.min, between(L.activity.min, L.activity.max))
  @Max(L.activity.max, between(L.activity.min, L.activity.max))
  limit: number;
}

@ArgsType()
export class PositionsArgs extends PortfolioPageArgs {
  @Field(() => PositionStatusEnum, { nullable: true, description: 'Only positions in this status.' })
  status?: PositionStatus;

  @Field(() => ExecutionModeEnum, modeField)
  mode: ExecutionMode;
}

@ArgsType()
export class OrdersArgs extends PortfolioPageArgs {
  @Field(() => OrderStateEnum, { nullable: true, description: 'Only orders in this state.' })
  state?: OrderState;

  @Field(() => ExecutionModeEnum, modeField)
  mode: ExecutionMode;
}

@ArgsType()
export class PositionIdArgs {
  @Field(() => ID)
  @MinLength(1, idLength)
  @MaxLength(L.id.max, idLength)
  positionId: string;
}

@ArgsType()
export class MarketPositionsArgs {
  @Field(() => VenueEnum)
  venue: Venue;

  @Field({ description: "The venue's market id." })
  @MinLength(1, idLength)
  @MaxLength(L.id.max, idLength)
  marketId: string;

  @Field(() => ExecutionModeEnum, modeField)
  mode: ExecutionMode;
}
