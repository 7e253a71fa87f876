import { MaxLength } from 'class-validator';
import { ArgsType, Field, Float } from 'type-graphql';
import { OffsetPagingArgs } from '../../graphql/paging';
import { ChainEnum } from '../wallets/wallets.types';
import { type FiatCurrency, FUNDING_LIMITS as L } from './funding.limits';
import { FiatCurrencyEnum } from './funding.types';
import { type Chain } from '../wallets/wallets.limits';

@ArgsType()
export class FundingAmountArgs {
  @Field(() => Float, {
    description:
      `Fiat amount, at most 2 decimals (onramp ${L.onramp.min}..${L.onramp.max}, intent ` +
      `${L.intent.min}..${L.intent.max}).`,
  })
  amount: number;

  @Field(() => FiatCurrencyEnum)
  currency: FiatCurrency;
}

@ArgsType()
export class WithdrawArgs {
  @Field(() => Float, {
    description: `USD, ${L.withdraw.min}..${L.withdraw.max}, at most 6 decimals; at most the available balance.`,
  })
  amount: number;

  @Field(() => ChainEnum)
  chain: Chain;

  @Field({ description: 'An address valid for the chain.' })
  @MaxLength(100)
  destination: string;
}

@ArgsType()
export class FundingPageArgs extends OffsetPagingArgs(L, { describe: ['limit'] }) {}
