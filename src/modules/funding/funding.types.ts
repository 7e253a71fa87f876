import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ChainEnum } from '../wallets/wallets.types';
import type { Chain } from '../wallets';
import type { WithdrawalStatus } from './funding.limits';
import type { FundingKind, FundingStatus, FundingView, WithdrawalView } from './funding.models';

export enum FiatCurrencyEnum {
  usd = 'usd',
  eur = 'eur',
  gbp = 'gbp',
}
registerEnumType(FiatCurrencyEnum, { name: 'FiatCurrency' });

export enum FundingKindEnum {
  onramp = 'onramp',
  payment_intent = 'payment_intent',
}
registerEnumType(FundingKindEnum, {
  name: 'FundingKind',
  description: '`onramp`: crypto onramp session; `payment_intent`: legacy fiat payment.',
});

export enum FundingStatusEnum {
  pending = 'pending',
  succeeded = 'succeeded',
  failed = 'failed',
}
registerEnumType(FundingStatusEnum, {
  name: 'FundingStatus',
  description: 'Moved by the processor webhook: pending → succeeded (credited once) or failed.',
});

export enum WithdrawalStatusEnum {
  queued = 'queued',
  processing = 'processing',
  completed = 'completed',
  failed = 'failed',
}
registerEnumType(WithdrawalStatusEnum, {
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
export class FundingPageType {
  @Field(() => [FundingTransactionType])
  data: FundingView[];
  @Field(() => Int)
  limit: number;
  @Field(() => Int)
  offset: number;
  @Field(() => Int)
  total: number;
}

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
export class WithdrawalPageType {
  @Field(() => [WithdrawalType])
  data: WithdrawalView[];
  @Field(() => Int)
  limit: number;
  @Field(() => Int)
  offset: number;
  @Field(() => Int)
  total: number;
}
