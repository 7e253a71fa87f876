import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum, OutcomeEnum, TradeSideEnum, VenueEnum } from '../../graphql/enums';
import { OffsetPageType } from '../../graphql/paging';
import type { OutcomeSide, Side, Venue } from '../../venues/venue.models';
import { EXECUTION_MODES, type ExecutionMode } from '../execution/execution.limits';
import {
  HOLDING_SOURCES,
  MARK_SOURCES,
  ORDER_STATES,
  POSITION_STATUSES,
  type HoldingSource,
  type MarkSource,
  type OrderState,
  type PositionStatus,
} from './portfolio.limits';
import type {
  FillFigures,
  FillView,
  MarkView,
  OrderFigures,
  OrderView,
  PositionView,
  TradeView,
  VenueMarkStatusView,
} from './portfolio.models';

export const ExecutionModeEnum = graphqlEnum(EXECUTION_MODES, {
  name: 'ExecutionMode',
  description:
    '`simulation` fills against the venue book inside the service, in the paper account; `live` trades at the ' +
    'venue (wallet-auth token).',
});

export const PositionStatusEnum = graphqlEnum(POSITION_STATUSES, {
  name: 'PositionStatus',
  description: '`open` holds contracts; `closed` was sold out; `pending` waits for a live order’s first fill.',
});

export const OrderStateEnum = graphqlEnum(ORDER_STATES, {
  name: 'OrderState',
  description:
    '`pending` (accepted) → `submitted` (at the venue) → `partially_filled` / `filled`; or `cancelled` ' +
    '(nothing fillable under the limit), `rejected` (refused before the venue), `failed` (the venue or ' +
    'execution service failed).',
});

export const HoldingSourceEnum = graphqlEnum(HOLDING_SOURCES, {
  name: 'HoldingSource',
  description:
    '`service`: from orders placed through this service; `wallet`: on-chain activity of a linked (imported) ' +
    'polygon wallet on venue_a.',
});

export const MarkSourceEnum = graphqlEnum(MARK_SOURCES, {
  name: 'MarkSource',
  description:
    "`live`: the venue's current mid; `last_known`: the venue could not quote, an earlier price is used; " +
    '`none`: no price known.',
});

@ObjectType('Mark', { description: "A position outcome's mark: the venue's YES mid (NO = 1 − YES)." })
export class MarkType implements MarkView {
  @Field(() => Float, { nullable: true, description: 'Outcome price, 0..1.' })
  price: number | null;
  @Field(() => Float, { nullable: true })
  yesPrice: number | null;
  @Field(() => MarkSourceEnum)
  source: MarkSource;
  @Field(() => Date, { nullable: true, description: 'When the price was observed.' })
  asOf: Date | null;
  @Field(() => String, { nullable: true, description: 'Why the mark is not live.' })
  reason: string | null;
}

@ObjectType('VenueMarkStatus', {
  description: 'Whether the marks of a venue are live (listed for the venues the positions are on).',
})
export class VenueMarkStatusType implements VenueMarkStatusView {
  @Field(() => VenueEnum)
  venue: Venue;
  @Field({ description: 'Every market of the venue was marked at its current mid.' })
  live: boolean;
  @Field(() => Int)
  markets: number;
  @Field(() => Int, { description: 'Markets marked at their last known price.' })
  lastKnown: number;
  @Field(() => Int, { description: 'Markets without any price.' })
  unmarked: number;
  @Field(() => String, { nullable: true })
  reason: string | null;
}

@ObjectType('Position', {
  description: 'A holding of one outcome of one venue market. Sizes in contracts, money in USD, prices 0..1.',
})
export class PositionType implements Omit<PositionView, 'userId' | 'micros'> {
  @Field(() => ID, {
    description: 'Service positions: the position id; wallet positions: `wallet:<address>:<marketId>:<outcome>`.',
  })
  id: string;
  @Field(() => HoldingSourceEnum)
  source: HoldingSource;
  @Field(() => String, { nullable: true, description: 'The linked wallet (wallet positions).' })
  walletAddress: string | null;
  @Field(() => ExecutionModeEnum, { description: '`live`, or `simulation`: a position of the paper account.' })
  mode: ExecutionMode;
  @Field(() => VenueEnum)
  venue: Venue;
  @Field({ description: "The venue's market id." })
  marketId: string;
  @Field(() => String, { nullable: true })
  eventId: string | null;
  @Field(() => OutcomeEnum)
  outcome: OutcomeSide;
  @Field(() => PositionStatusEnum)
  status: PositionStatus;
  @Field(() => Float)
  size: number;
  @Field(() => Float, { nullable: true, description: 'Cost basis per contract; null when flat.' })
  avgPrice: number | null;
  @Field(() => Float, { description: 'Cost of the contracts held.' })
  costBasis: number;
  @Field(() => Float)
  realizedPnl: number;
  @Field(() => Float, {
    nullable: true,
    description: 'Fees paid (null for wallet positions: on-chain fills carry none).',
  })
  fees: number | null;
  @Field(() => Date, { nullable: true })
  openedAt: Date | null;
  @Field(() => Date, { nullable: true })
  closedAt: Date | null;
  @Field()
  updatedAt: Date;
}

/**
 * The fields of a fill that `OrderFill` (here) and `ExecutionFill` (the execution stream) declare
 * alike; each extends it with its own. Never named in the schema.
 */
@ObjectType()
export abstract class FillFieldsType implements FillFigures {
  @Field(() => Int)
  seq: number;
  @Field(() => Float)
  price: number;
  @Field(() => Float)
  size: number;
  @Field(() => Float)
  fee: number;
  @Field()
  filledAt: Date;
}

@ObjectType('OrderFill', { description: 'One execution of an order at one price.' })
export class OrderFillType extends FillFieldsType implements Omit<FillView, 'orderId'> {
  @Field(() => ID)
  id: string;
  @Field(() => Float, { description: 'price × size, before the fee.' })
  notional: number;
}

/**
 * The fields of an order that `Order` (here) and `ExecutionOrder` (the execution stream) declare
 * alike; each extends it with the fields it shows or describes otherwise. Never named in the schema.
 */
@ObjectType()
export abstract class OrderFieldsType implements Omit<
  OrderFigures,
  'orderType' | 'mode' | 'notional' | 'externalOrderId'
> {
  @Field(() => ID)
  id: string;
  @Field(() => OrderStateEnum)
  state: OrderState;
  @Field(() => VenueEnum)
  venue: Venue;
  @Field({ description: "The venue's market id." })
  marketId: string;
  @Field(() => OutcomeEnum)
  outcome: OutcomeSide;
  @Field(() => TradeSideEnum)
  side: Side;
  @Field(() => Float, { nullable: true })
  limitPrice: number | null;
  @Field(() => Float)
  requestedSize: number;
  @Field(() => Float)
  filledSize: number;
  @Field(() => Float, { nullable: true })
  avgPrice: number | null;
  @Field(() => Float)
  fees: number;
  @Field(() => String, { nullable: true })
  failureReason: string | null;
  @Field(() => String, { nullable: true })
  positionId: string | null;
  @Field({ description: '`execute`, `position_sell` or `copytrade`.' })
  source: string;
  @Field()
  createdAt: Date;
  @Field()
  updatedAt: Date;
}

@ObjectType('Order', { description: 'An order placed through the service (execute, position sell, copytrade).' })
export class OrderType extends OrderFieldsType implements Omit<OrderView, 'userId'> {
  @Field(() => String, { nullable: true })
  eventId: string | null;
  @Field(() => String, { description: '`market` or `limit`.' })
  orderType: 'market' | 'limit';
  @Field(() => String, { description: '`simulation` or `live`.' })
  mode: 'simulation' | 'live';
  @Field(() => Float, { description: 'Sum of fill notionals, before fees.' })
  notional: number;
  @Field(() => String, { nullable: true })
  externalOrderId: string | null;
}

@ObjectType('PortfolioTrade', {
  description: "A trade of the caller's history: a service fill or a linked wallet's on-chain fill.",
})
export class PortfolioTradeType implements TradeView {
  @Field(() => ID, { description: '`fill:<id>` or `trade:<id>`.' })
  id: string;
  @Field(() => HoldingSourceEnum)
  source: HoldingSource;
  @Field(() => VenueEnum)
  venue: Venue;
  @Field()
  marketId: string;
  @Field(() => String, { nullable: true })
  eventId: string | null;
  @Field(() => String, { nullable: true, description: "The catalog's market title." })
  marketTitle: string | null;
  @Field(() => OutcomeEnum)
  outcome: OutcomeSide;
  @Field(() => TradeSideEnum)
  side: Side;
  @Field(() => Float)
  price: number;
  @Field(() => Float)
  size: number;
  @Field(() => Float)
  notional: number;
  @Field(() => Float, { nullable: true, description: 'Null for on-chain fills.' })
  fee: number | null;
  @Field()
  filledAt: Date;
  @Field(() => String, { nullable: true })
  orderId: string | null;
  @Field(() => String, { nullable: true, description: '`simulation` or `live` (service fills).' })
  mode: 'simulation' | 'live' | null;
  @Field(() => String, { nullable: true })
  walletAddress: string | null;
}

@ObjectType('PositionPage')
export class PositionPageType extends OffsetPageType<PositionView>(PositionType) {}

@ObjectType('OrderPage')
export class OrderPageType extends OffsetPageType<OrderView>(OrderType) {}

@ObjectType('PortfolioTradePage')
export class PortfolioTradePageType extends OffsetPageType<TradeView>(PortfolioTradeType) {}

@ObjectType('MarketPositions', {
  description: "The caller's positions in one venue market (both outcomes, any status, service and wallets).",
})
export class MarketPositionsType {
  @Field(() => VenueEnum)
  venue: Venue;
  @Field()
  marketId: string;
  @Field(() => [PositionType])
  data: PositionView[];
}
