import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums';
import type { RewardType } from './rewards.limits';
import type { RewardUnit } from './rewards.models';
import {
  DISCREPANCY_REASONS,
  type DiscrepancyReason,
  type DiscrepancyView,
  type FeeWindowReport,
  type ReconciliationView,
  type ReplayReportView,
  type RewardExportRow,
  type TypeReconciliationView,
} from './reconciliation.models';
import { RewardEntryFieldsObject, RewardTypeEnum } from './rewards.types';

export const DiscrepancyReasonEnum = graphqlEnum(DISCREPANCY_REASONS, {
  name: 'RewardDiscrepancyReason',
  description:
    '`missing`: a fee lacks a reward the rules give it; `unexpected`: a referral reward nobody should earn; ' +
    '`beneficiary`: the wrong user earns it; `amount`: the fee or amount differs from the ledger fee at the ' +
    'recorded rate; `orphan`: its source is no trading fee of the ledger.',
});

@ObjectType('RewardDiscrepancy')
export class RewardDiscrepancyObject implements DiscrepancyView {
  @Field(() => DiscrepancyReasonEnum)
  reason: DiscrepancyReason;
  @Field()
  source: string;
  @Field(() => RewardTypeEnum)
  type: RewardType;
  @Field(() => String, { nullable: true })
  expectedUserId: string | null;
  @Field(() => String, { nullable: true })
  recordedUserId: string | null;
  @Field(() => Float)
  expected: number;
  @Field(() => Float)
  recorded: number;
  @Field(() => ID, { nullable: true })
  rewardId: string | null;
}

@ObjectType('RewardTypeReconciliation')
export class RewardTypeReconciliationObject implements TypeReconciliationView {
  @Field(() => RewardTypeEnum)
  type: RewardType;
  @Field(() => String)
  unit: RewardUnit;
  @Field(() => Int)
  expectedCount: number;
  @Field(() => Int)
  recordedCount: number;
  @Field(() => Float)
  expected: number;
  @Field(() => Float)
  recorded: number;
}

/** The window and fee count both window reports start with. Never named in the schema. */
@ObjectType()
export abstract class FeeWindowReportObject implements FeeWindowReport {
  @Field()
  from: Date;
  @Field()
  to: Date;
  @Field(() => Int, { description: 'Trading fees in the window.' })
  fees: number;
}

@ObjectType('RewardsReconciliation', {
  description: 'The rewards ledger against the trading fees of the balance ledger, over a window of fee times.',
})
export class RewardsReconciliationObject extends FeeWindowReportObject implements ReconciliationView {
  @Field(() => Float)
  feesUsd: number;
  @Field(() => [RewardTypeReconciliationObject])
  byType: TypeReconciliationView[];
  @Field(() => Int)
  discrepancyCount: number;
  @Field(() => [RewardDiscrepancyObject], { description: 'The first 100 discrepancies.' })
  discrepancies: DiscrepancyView[];
  @Field({ description: 'No discrepancy.' })
  balanced: boolean;
  @Field()
  checkedAt: Date;
}

@ObjectType('RewardExportRow', {
  description: 'One rewards-ledger row; amounts as exact decimal strings (six decimals).',
})
export class RewardExportRowObject extends RewardEntryFieldsObject implements RewardExportRow {
  @Field()
  userId: string;
  @Field()
  state: string;
  @Field()
  amount: string;
  @Field(() => String)
  unit: RewardUnit;
  @Field()
  source: string;
  @Field()
  sourceUserId: string;
  @Field()
  fee: string;
  @Field(() => Int)
  rate: number;
}

@ObjectType('RewardsReplayReport')
export class RewardsReplayReportObject extends FeeWindowReportObject implements ReplayReportView {
  @Field(() => Int, { description: 'Rewards written (0 when nothing was missing).' })
  inserted: number;
}
