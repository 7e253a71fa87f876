import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums';
import { OffsetPageType } from '../../graphql/paging';
import type { Chain } from '../wallets/wallets.limits';
import { ChainEnum } from '../wallets/wallets.types';
import {
  REWARD_EVENTS,
  REWARD_STATES,
  REWARD_TYPES,
  type RewardEventKind,
  type RewardState,
  type RewardType,
} from './rewards.limits';
import type {
  RewardEntryFields,
  ReferralStatusView,
  RewardClaimView,
  RewardEventView,
  RewardsSummaryView,
  RewardTotalsView,
  RewardUnit,
  RewardView,
} from './rewards.models';

export const RewardTypeEnum = graphqlEnum(REWARD_TYPES, {
  name: 'RewardType',
  description:
    "`cashback`: a share of the caller's own fees; `referral_tier1`/`referral_tier2`: shares of the fees of " +
    'users they referred, directly or through one of those; `points`: a score per USD of fees.',
});

export const RewardStateEnum = graphqlEnum(REWARD_STATES, {
  name: 'RewardState',
  description:
    '`pending` (held until `availableAt`) → `available` (claimable; points end here) → `claimed` (credited to ' +
    'the balance).',
});

export const RewardEventKindEnum = graphqlEnum(REWARD_EVENTS, { name: 'RewardEventKind' });

/**
 * The fields of a rewards-ledger row that `Reward` and `RewardExportRow` declare alike; each adds
 * its amounts (numbers or exact strings) and wording. Never named in the schema.
 */
@ObjectType()
export abstract class RewardEntryFieldsObject implements Omit<RewardEntryFields, 'unit' | 'source' | 'rate'> {
  @Field(() => ID)
  id: string;
  @Field(() => RewardTypeEnum)
  type: RewardType;
  @Field()
  accruedAt: Date;
  @Field()
  availableAt: Date;
  @Field(() => String, { nullable: true })
  claimId: string | null;
  @Field(() => Date, { nullable: true })
  claimedAt: Date | null;
}

@ObjectType('Reward', { description: 'One row of the rewards ledger: a reward accrued from one trading fee.' })
export class RewardObject extends RewardEntryFieldsObject implements RewardView {
  @Field(() => RewardStateEnum)
  state: RewardState;
  @Field(() => Float, { description: 'USD, or points for `points`.' })
  amount: number;
  @Field(() => String, { description: '`USD` or `points`.' })
  unit: RewardUnit;
  @Field({ description: 'The fee that caused it: `fee:<orderId>:<seq>`.' })
  source: string;
  @Field(() => Float, { description: 'The fee in USD.' })
  fee: number;
  @Field(() => Int, { description: 'Basis points of the fee, or points per USD of fee.' })
  rate: number;
}

@ObjectType('RewardPage')
export class RewardPageObject extends OffsetPageType<RewardView>(RewardObject) {}

@ObjectType('RewardEvent', { description: 'One change of a reward (the audit trail).' })
export class RewardEventObject implements RewardEventView {
  @Field(() => ID)
  id: string;
  @Field(() => ID)
  rewardId: string;
  @Field(() => RewardTypeEnum)
  type: RewardType;
  @Field(() => RewardEventKindEnum)
  event: RewardEventKind;
  @Field(() => Float)
  amount: number;
  @Field(() => String)
  unit: RewardUnit;
  @Field()
  source: string;
  @Field(() => String, { nullable: true })
  claimId: string | null;
  @Field()
  at: Date;
}

@ObjectType('RewardEventPage')
export class RewardEventPageObject extends OffsetPageType<RewardEventView>(RewardEventObject) {}

@ObjectType('RewardTotals')
export class RewardTotalsObject implements RewardTotalsView {
  @Field(() => RewardTypeEnum)
  type: RewardType;
  @Field(() => String)
  unit: RewardUnit;
  @Field(() => Float)
  pending: number;
  @Field(() => Float)
  available: number;
  @Field(() => Float)
  claimed: number;
  @Field(() => Float)
  total: number;
}

@ObjectType('RewardsSummary', { description: 'Cashback and referral USD totals, points, and what is claimable.' })
export class RewardsSummaryObject implements RewardsSummaryView {
  @Field(() => String)
  currency: 'USD';
  @Field(() => Float, { description: 'Cashback earned, in every state.' })
  cashbackUsd: number;
  @Field(() => Float, { description: 'Referral shares earned (both tiers), in every state.' })
  referralUsd: number;
  @Field(() => Float)
  claimableUsd: number;
  @Field(() => Float)
  pendingUsd: number;
  @Field(() => Float)
  claimedUsd: number;
  @Field(() => Float)
  points: number;
  @Field(() => [RewardTotalsObject])
  byType: RewardTotalsView[];
  @Field(() => Date, { nullable: true, description: 'When the next held reward becomes available.' })
  nextAvailableAt: Date | null;
}

@ObjectType('ReferredBy')
export class ReferredByObject {
  @Field()
  code: string;
  @Field()
  appliedAt: Date;
}

@ObjectType('ReferralStatus')
export class ReferralStatusObject implements ReferralStatusView {
  @Field(() => String, { nullable: true, description: "The caller's own code (null until created)." })
  code: string | null;
  @Field(() => ReferredByObject, { nullable: true, description: 'The referral the caller applied.' })
  referredBy: { code: string; appliedAt: Date } | null;
  @Field({ description: 'Whether the caller may still apply a code (not referred, no fee charged yet).' })
  canApply: boolean;
  @Field(() => Int)
  tier1Referrals: number;
  @Field(() => Int)
  tier2Referrals: number;
  @Field(() => Float)
  tier1EarnedUsd: number;
  @Field(() => Float)
  tier2EarnedUsd: number;
}

@ObjectType('ReferralCode')
export class ReferralCodeObject {
  @Field({ description: 'Eight letters and digits without look-alikes; apply it in any case, with or without dashes.' })
  code: string;
  @Field({ description: 'Whether this request created it.' })
  created: boolean;
}

@ObjectType('RewardClaim', {
  description: "Available USD rewards credited to the balance ledger, for one of the caller's wallets.",
})
export class RewardClaimObject implements RewardClaimView {
  @Field(() => ID)
  id: string;
  @Field()
  walletId: string;
  @Field(() => ChainEnum)
  chain: Chain;
  @Field()
  address: string;
  @Field(() => Float)
  amount: number;
  @Field(() => String)
  currency: 'USD';
  @Field(() => Int, { description: 'Rewards the claim paid out.' })
  entries: number;
  @Field({ description: 'The balance-ledger reference of the credit (`reward_claim:<id>`).' })
  ledgerReference: string;
  @Field()
  createdAt: Date;
}
