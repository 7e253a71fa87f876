import { Field, ID, ObjectType } from 'type-graphql';
import { WalletType } from '../wallets/wallets.types';
import type { WalletView } from '../wallets';
import type { AccountView } from './accounts.service';

@ObjectType('Account', { description: 'The caller: user id (the bearer subject) and wallets.' })
export class AccountType implements AccountView {
  @Field(() => ID)
  userId: string;
  @Field(() => Date, { nullable: true, description: 'When onboarding created the user; null before /auth/setup.' })
  createdAt: Date | null;
  @Field(() => [WalletType])
  wallets: WalletView[];
}

@ObjectType('AccountSetup', { description: 'The account after onboarding.' })
export class AccountSetupType extends AccountType {
  @Field({ description: 'True when this call created the user.' })
  created: boolean;
}
