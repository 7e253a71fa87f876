import { Field, ID, ObjectType } from 'type-graphql';
import { graphqlEnum, OutcomeEnum, TradeSideEnum, VenueEnum } from '../../graphql/enums';
import type { OutcomeSide, Side, Venue } from '../../venues/venue.models';
import type { ExecutionMode } from '../execution/execution.limits';
import type { BalanceView } from '../execution/execution.models';
import { ExecutionBalanceType } from '../execution/execution.types';
import type { OrderView, PositionView } from '../portfolio/portfolio.models';
import { ExecutionModeEnum, OrderFillType, OrderType, PositionType } from '../portfolio/portfolio.types';
import {
  ACCOUNT_UPDATE_KINDS,
  type AccountFillView,
  type AccountUpdateKind,
  type AccountUpdateView,
} from './account-streams.models';

export const AccountUpdateKindEnum = graphqlEnum(ACCOUNT_UPDATE_KINDS, {
  name: 'AccountUpdateKind',
  description:
    '`order`: an order was placed or changed state; `fill`: one of its fills; `position`: the position its ' +
    'fills moved; `balance`: the balance a movement changed (an order, a deposit, a withdrawal, a claim, a reset).',
});

@ObjectType('AccountFill', { description: "A fill of one of the caller's orders, with the order's market and side." })
export class AccountFillType extends OrderFillType implements AccountFillView {
  @Field(() => ID)
  orderId: string;
  @Field(() => VenueEnum)
  venue: Venue;
  @Field({ description: "The venue's market id." })
  marketId: string;
  @Field(() => OutcomeEnum)
  outcome: OutcomeSide;
  @Field(() => TradeSideEnum)
  side: Side;
}

@ObjectType('AccountUpdate', {
  description:
    "One change of the caller's own account, announced once its transaction committed, in commit order. " +
    'The field named by `kind` is set, the others are null.',
})
export class AccountUpdateType implements AccountUpdateView {
  @Field(() => ID, { description: 'Unique per change (the SSE `id:`).' })
  id: string;
  @Field(() => AccountUpdateKindEnum)
  kind: AccountUpdateKind;
  @Field(() => ExecutionModeEnum, { description: '`live`, or `simulation`: the paper account.' })
  mode: ExecutionMode;
  @Field({ description: 'When it was announced, just after its commit.' })
  at: Date;
  @Field(() => OrderType, { nullable: true, description: 'On `order`: the order as written.' })
  order: OrderView | null;
  @Field(() => AccountFillType, { nullable: true, description: 'On `fill`.' })
  fill: AccountFillView | null;
  @Field(() => PositionType, { nullable: true, description: 'On `position`: the position as it now stands.' })
  position: PositionView | null;
  @Field(() => ExecutionBalanceType, {
    nullable: true,
    description: "On `balance`: the account's balance after the change (USD; paper dollars for `simulation`).",
  })
  balance: BalanceView | null;
}
