import { Field, Float, ID, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums';
import { OffsetPageType } from '../../graphql/paging';
import { ChainEnum } from '../wallets/wallets.types';
import type { Chain } from '../wallets';
import { FIAT_CURRENCIES, WITHDRAWAL_STATUSES, type WithdrawalStatus } from './funding.limits';
import {
  FUNDING_KINDS,
  FUNDING_STATUSES,
  type FundingKind,
  type FundingStatus,
  type FundingView,
  type WithdrawalView,
} from './funding.models';

export const FiatCurrencyEnum = graphqlEnum(FIAT_CURRENCIES, { name: 'FiatCurrency' });

export const FundingKindEnum = graphqlEnum(FUNDING_KINDS, {
  name: 'FundingKind',
  description: '`onramp`: crypto onramp session; `payment_intent`: legacy fiat payment.',
});

export const FundingStatusEnum = graphqlEnum(FUNDING_STATUSES, {
  name: 'FundingStatus',
  description: 'Moved by the processor webhook: pending → succeeded (credited once) or failed.',
});

export const WithdrawalStatusEnum = graphqlEnum(WITHDRAWAL_STATUSES, {
  name: 'WithdrawalStatus',
  description:
    'queued (amount held) → processing (sent to the processor) → completed (hold settled) or failed (hold released).',
});

@ObjectType('FundingTransaction', { description: 'A deposit through the payment processor.' })
export class FundingTransactionType implements FundingView {
  @Field(() => ID)
  id: string;
  @Field(() => FundingKindEnum)
  kind: FundingKind;
  @Field(() => FundingStatusEnum)
  status: FundingStatus;
  @Field(() => Float, { description: 'Requested amount in `currency`.' })
  amount: number;
  @Field()
  currency: string;
  @Field(() => Float, { nullable: true, description: 'USD credited to the balance on success.' })
  credited: number | null;
  @Field(() => String, { nullable: true })
  failureReason: string | null;
  @Field({ description: "The processor's session or payment-intent id." })
  processorId: string;
  @Field(() => String, { nullable: true, description: "Onramp: the processor's hosted page." })
  redirectUrl: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'Payment intent: the client secret (in the creating answer only).',
  })
  clientSecret: string | null;
  @Field()
  createdAt: Date;
  @Field()
  updatedAt: Date;
}

@ObjectType('FundingPage')
export class FundingPageType extends OffsetPageType<FundingView>(FundingTransactionType) {}

@ObjectType('Withdrawal', { description: 'A withdrawal of balance to an on-chain address, paid out as USDC.' })
export class WithdrawalType implements WithdrawalView {
  @Field(() => ID)
  id: string;
  @Field(() => ChainEnum)
  chain: Chain;
  @Field()
  destination: string;
  @Field(() => Float)
  amount: number;
  @Field()
  currency: string;
  @Field(() => WithdrawalStatusEnum)
  status: WithdrawalStatus;
  @Field(() => String, { nullable: true })
  failureReason: string | null;
  @Field(() => String, { nullable: true })
  payoutId: string | null;
  @Field()
  createdAt: Date;
  @Field()
  updatedAt: Date;
}

@ObjectType('WithdrawalPage')
export class WithdrawalPageType extends OffsetPageType<WithdrawalView>(WithdrawalType) {}
