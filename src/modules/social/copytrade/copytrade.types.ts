import { Field, Float, ObjectType } from 'type-graphql';
import type { BalanceView, OrderView, PositionSummaryView } from '../../execution/execution.models';
import { ExecutionBalanceType, ExecutionOrderType, ExecutionPositionType } from '../../execution/execution.types';
import type { CopytradeResultView } from './copytrade.service';
import type { TraderTradeView } from '../traders/leaderboard.service';
import { TraderTradeType } from '../traders/leaderboard.types';

@ObjectType('CopytradeResult', {
  description: "A followed trader's trade mirrored through execution, once the order ended.",
})
export class CopytradeResultType implements CopytradeResultView {
  @Field(() => ExecutionOrderType, {
    description: 'The copy (`source` copytrade): state, filled size, average price, fees.',
  })
  order: OrderView;
  @Field(() => ExecutionPositionType, { nullable: true, description: "The caller's position after the copy." })
  position: PositionSummaryView | null;
  @Field(() => ExecutionBalanceType, { nullable: true, description: 'The USD balance after the copy.' })
  balance: BalanceView | null;
  @Field(() => TraderTradeType, { description: "The trader's trade that was copied." })
  copied: TraderTradeView;
  @Field(() => Float, { description: 'Best price of the traded side when the copy was checked.' })
  bestPrice: number;
  @Field(() => Float, {
    description: "The copy's limit: the trader's price moved by the tolerated deviation against the caller.",
  })
  limitPrice: number;
  @Field({ description: 'True when an Idempotency-Key replayed the first outcome.' })
  replayed: boolean;
}
