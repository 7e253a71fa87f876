import { Field, Float, ID, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums';
import { CHAINS, type Chain } from './wallets.limits';
import {
  WALLET_KINDS,
  WALLET_VERIFICATIONS,
  type AggregateBalanceView,
  type ChainBalancesView,
  type WalletBalanceView,
  type WalletChallengeView,
  type WalletKind,
  type WalletVerification,
  type WalletView,
} from './wallets.models';
import {} from './wallets.limits';

export const ChainEnum = graphqlEnum(CHAINS, { name: 'Chain', description: 'A chain wallets live on.' });

export const WalletKindEnum = graphqlEnum(WALLET_KINDS, {
  name: 'WalletKind',
  description:
    '`provisioned`: created by the service at onboarding (cannot be removed); `imported`: linked by the user.',
});

export const WalletVerificationEnum = graphqlEnum(WALLET_VERIFICATIONS, {
  name: 'WalletVerification',
  description:
    '`unverified`: imported, its owner has not yet signed a challenge (it counts in no public figure); ' +
    '`verified`: its owner signed a challenge with the address key, or the service provisioned it.',
});

@ObjectType('Wallet')
export class WalletType implements Omit<WalletView, 'userId'> {
  @Field(() => ID)
  id: string;
  @Field(() => ChainEnum)
  chain: Chain;
  @Field({ description: 'EIP-55 checksum case on polygon; base58 on solana.' })
  address: string;
  @Field(() => WalletKindEnum)
  kind: WalletKind;
  @Field()
  createdAt: Date;
  @Field(() => WalletVerificationEnum)
  verification: WalletVerification;
  @Field(() => Date, { nullable: true, description: 'When the owner proved control; null while unverified.' })
  verifiedAt: Date | null;
}

@ObjectType('WalletChallenge', {
  description: 'A one-time ownership challenge: sign `message` with the wallet key before `expiresAt`, once.',
})
export class WalletChallengeType implements WalletChallengeView {
  @Field(() => ID)
  walletId: string;
  @Field(() => ChainEnum)
  chain: Chain;
  @Field()
  address: string;
  @Field({
    description: 'The exact text to sign: EIP-191 personal_sign on polygon, ed25519 over its UTF-8 bytes on solana.',
  })
  message: string;
  @Field()
  nonce: string;
  @Field()
  expiresAt: Date;
}

@ObjectType('WalletBalance', { description: "One wallet's on-chain holdings (token units) and their USD value." })
export class WalletBalanceType implements WalletBalanceView {
  @Field(() => ID)
  walletId: string;
  @Field()
  address: string;
  @Field(() => WalletKindEnum)
  kind: WalletKind;
  @Field(() => Float, { description: 'USDC (the stablecoin), valued 1:1.' })
  usdc: number;
  @Field(() => Float, { description: 'The native token (MATIC on polygon, SOL on solana).' })
  native: number;
  @Field(() => Float)
  usdValue: number;
}

@ObjectType('ChainBalances')
export class ChainBalancesType implements ChainBalancesView {
  @Field(() => ChainEnum)
  chain: Chain;
  @Field()
  nativeSymbol: string;
  @Field(() => Float, { description: 'USD price of the native token used for the valuation.' })
  nativeUsdPrice: number;
  @Field(() => [WalletBalanceType])
  wallets: WalletBalanceView[];
  @Field(() => Float)
  totalUsdc: number;
  @Field(() => Float)
  totalNative: number;
  @Field(() => Float)
  totalUsd: number;
}

@ObjectType('ChainValue')
export class ChainValueType {
  @Field(() => ChainEnum)
  chain: Chain;
  @Field(() => Float)
  usd: number;
}

@ObjectType('TokenPrice')
export class TokenPriceType {
  @Field()
  symbol: string;
  @Field(() => Float)
  usd: number;
}

@ObjectType('AggregateBalance', { description: 'Ledger balance plus on-chain holdings, in USD.' })
export class AggregateBalanceType implements AggregateBalanceView {
  @Field()
  currency: 'USD';
  @Field(() => Float, { description: 'available + held + onchain.' })
  total: number;
  @Field(() => Float, { description: 'Ledger funds free to trade or withdraw.' })
  available: number;
  @Field(() => Float, { description: 'Ledger funds held by pending withdrawals.' })
  held: number;
  @Field(() => Float, {
    description: "USD value of the caller's wallets (USDC 1:1, native tokens at the upstream price).",
  })
  onchain: number;
  @Field(() => [ChainValueType])
  chains: ChainValueType[];
  @Field(() => [TokenPriceType])
  prices: TokenPriceType[];
}
