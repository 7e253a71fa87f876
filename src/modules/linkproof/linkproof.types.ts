import { Field, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums';
import {
  WALLET_PROOF_STATES,
  type ProofLinkView,
  type WalletProofState,
  type WalletProofView,
} from './linkproof.models';

export const WalletProofStateEnum = graphqlEnum(WALLET_PROOF_STATES, {
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
