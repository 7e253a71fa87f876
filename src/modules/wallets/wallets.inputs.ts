import { MaxLength } from 'class-validator';
import { ArgsType, Field, ID } from 'type-graphql';
import { ChainEnum } from './wallets.types';
import { type Chain } from './wallets.limits';

@ArgsType()
export class ImportWalletArgs {
  @Field(() => ChainEnum)
  chain: Chain;

  @Field({ description: 'polygon: 0x and 40 hex digits (EIP-55 case, or all one case); solana: base58 of 32 bytes.' })
  @MaxLength(100)
  address: string;
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
