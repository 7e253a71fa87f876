import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums';
import type { Quote } from '../routing/order-book.math';
import { CostQuoteType } from '../routing/routing.types';
// The portfolio read side owns the order's and the fill's shared fields (and the `OrderState`
// enum); the stream reports the same rows.
import { ExecutionModeEnum, FillFieldsType, OrderFieldsType } from '../portfolio/portfolio.types';
import {
  EXECUTION_EVENTS,
  FAILURE_CODES,
  ORDER_TYPES,
  type ExecutionEventKind,
  type ExecutionMode,
  type FailureCode,
  type OrderKind,
} from './execution.limits';
import type {
  BalanceView,
  ExecutionErrorView,
  ExecutionEvent,
  FillView,
  OrderView,
  PositionSummaryView,
} from './execution.models';

/** Declared with the portfolio's types (orders and positions carry it); the execution surface names it too. */
export { ExecutionModeEnum };

export const OrderTypeEnum = graphqlEnum(ORDER_TYPES, {
  name: 'OrderType',
  description: 'Both are immediate-or-cancel; a limit order fills only at its limit price or better.',
});

export const ExecutionEventKindEnum = graphqlEnum(EXECUTION_EVENTS, {
  name: 'ExecutionEventKind',
  description:
    'accepted, quote, submitted, fill…, then completed, failed, or outcome_unknown (live venue_a: the ' +
    'execution service has not reported the outcome in time; the order stays submitted with its hold until ' +
    'the reconciler settles or fails it).',
});

export const FailureCodeEnum = graphqlEnum(FAILURE_CODES, { name: 'ExecutionFailureCode' });

@ObjectType('ExecutionOrder', { description: 'An order as the execution stream reports it.' })
export class ExecutionOrderType extends OrderFieldsType implements OrderView {
  @Field(() => String, { nullable: true })
  coreId: string | null;
  @Field(() => OrderTypeEnum)
  orderType: OrderKind;
  @Field(() => ExecutionModeEnum)
  mode: ExecutionMode;
  @Field(() => Float, { description: 'USD before fees.' })
  notional: number;
  @Field(() => Float, { description: 'Buys: notional + fees (paid); sells: notional − fees (received).' })
  total: number;
  @Field(() => String, { nullable: true, description: "The venue's or execution service's order id (live)." })
  externalOrderId: string | null;
  @Field({ description: 'False for an anonymous simulation: nothing was stored.' })
  persisted: boolean;
}

@ObjectType('ExecutionFill')
export class ExecutionFillType extends FillFieldsType implements FillView {
  @Field(() => Float, { description: 'Contracts filled so far, this fill included.' })
  filledSize: number;
}

@ObjectType('ExecutionPosition', { description: 'The position after the order.' })
export class ExecutionPositionType implements PositionSummaryView {
  @Field(() => ID)
  id: string;
  @Field(() => String, { description: 'open, closed or pending.' })
  status: 'open' | 'closed' | 'pending';
  @Field(() => Float)
  size: number;
  @Field(() => Float, { nullable: true, description: 'Average entry price, fees excluded.' })
  avgPrice: number | null;
  @Field(() => Float)
  costBasis: number;
  @Field(() => Float, { description: 'Net of every fee paid.' })
  realizedPnl: number;
  @Field(() => Float)
  fees: number;
}

@ObjectType('ExecutionBalance')
export class ExecutionBalanceType implements BalanceView {
  @Field(() => Float)
  available: number;
  @Field(() => Float)
  held: number;
}

@ObjectType('ExecutionError')
export class ExecutionErrorType implements ExecutionErrorView {
  @Field(() => FailureCodeEnum)
  code: FailureCode;
  @Field()
  message: string;
}

@ObjectType('ExecutionEvent', { description: 'One message of an execution stream; `id` is `<orderId>:<seq>`.' })
export class ExecutionEventType implements ExecutionEvent {
  @Field(() => ID)
  id: string;
  @Field(() => ExecutionEventKindEnum)
  event: ExecutionEventKind;
  @Field(() => Int)
  seq: number;
  @Field(() => ID)
  orderId: string;
  @Field()
  at: Date;
  @Field({ description: 'True when replaying the first outcome of an Idempotency-Key.' })
  replayed: boolean;
  @Field(() => ExecutionOrderType, {
    nullable: true,
    description: 'On accepted, submitted, completed, failed, outcome_unknown.',
  })
  order: OrderView | null;
  @Field(() => CostQuoteType, { nullable: true, description: 'On quote: the order walked through the current book.' })
  quote: Quote | null;
  @Field(() => ExecutionFillType, { nullable: true, description: 'On fill.' })
  fill: FillView | null;
  @Field(() => ExecutionPositionType, { nullable: true, description: 'On completed (authenticated).' })
  position: PositionSummaryView | null;
  @Field(() => ExecutionBalanceType, {
    nullable: true,
    description: 'On completed (authenticated): the USD balance after; on outcome_unknown: with the hold still held.',
  })
  balance: BalanceView | null;
  @Field(() => ExecutionErrorType, {
    nullable: true,
    description: 'On failed: why; on outcome_unknown: why the outcome is not known yet.',
  })
  error: ExecutionErrorView | null;
}
