import { MaxLength } from 'class-validator';
import { ArgsType, Field } from 'type-graphql';

@ArgsType()
export class VerifyWalletArgs {
  @Field({ description: 'A Solana address (base58 of 32 bytes).' })
  @MaxLength(100)
  wallet: string;
}
