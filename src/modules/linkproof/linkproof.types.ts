import { Field, ObjectType, registerEnumType } from 'type-graphql';
import type { ProofLinkView, WalletProofState, WalletProofView } from './linkproof.models';

export enum WalletProofStateEnum {
  verified = 'verified',
  pending = 'pending',
  unverified = 'unverified',
  expired = 'expired',
  no_wallet = 'no_wallet',
}
registerEnumType(WalletProofStateEnum, {
  name: 'WalletProofState',
  description: "The identity provider's word on a wallet's proof; `no_wallet` when the caller has no Solana wallet.",
});

@ObjectType('ProofLink', { description: "A deep link that starts the proof for the caller's primary Solana wallet." })
export class ProofLinkObject implements ProofLinkView {
  @Field()
  wallet: string;
  @Field(() => String)
  chain: 'solana';
  @Field()
  url: string;
  @Field()
  expiresAt: Date;
}

@ObjectType('WalletProof')
export class WalletProofObject implements WalletProofView {
  @Field(() => String, { nullable: true })
  wallet: string | null;
  @Field(() => String)
  chain: 'solana';
  @Field(() => WalletProofStateEnum)
  status: WalletProofState;
  @Field()
  verified: boolean;
  @Field(() => Date, { nullable: true })
  verifiedAt: Date | null;
  @Field()
  checkedAt: Date;
}
