import { MaxLength } from 'class-validator';
import { ArgsType, Field, ID } from 'type-graphql';
import { ChainEnum } from './wallets.types';
import { SIGNATURE_MAX_LENGTH, type Chain } from './wallets.limits';

@ArgsType()
export class ImportWalletArgs {
  @Field(() => ChainEnum)
  chain: Chain;

  @Field({ description: 'polygon: 0x and 40 hex digits (EIP-55 case, or all one case); solana: base58 of 32 bytes.' })
  @MaxLength(100)
  address: string;

  @Field(() => Boolean, {
    nullable: true,
    description:
      'Link the address even though another account holds an unverified link of it, to claim it by signing ' +
      'a challenge (the verify removes the other unverified links). Never over an address another account verified.',
  })
  claim?: boolean | null;
}

@ArgsType()
export class WalletIdArgs {
  @Field(() => ID)
  @MaxLength(100)
  id: string;
}

@ArgsType()
export class ChainArgs {
  @Field(() => ChainEnum)
  chain: Chain;
}

@ArgsType()
export class VerifyWalletArgs {
  @Field(() => ID)
  @MaxLength(100)
  id: string;

  @Field({
    description:
      "The challenge message signed with the wallet's key. polygon: EIP-191 personal_sign, 0x and 130 hex " +
      'digits; solana: ed25519, the base58 of 64 bytes.',
  })
  @MaxLength(SIGNATURE_MAX_LENGTH)
  signature: string;
}
