import { Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { AccountSetupType, AccountType } from './accounts.types';
import { walletsLoaders } from '../wallets/wallets.loaders';
import { AccountsService } from './accounts.service';

@Resolver()
export class AccountsResolver {
  @Mutation(() => AccountSetupType, {
    description:
      'First-time onboarding: creates the user and its provisioned wallets if missing (idempotent; rate ' +
      'limited per user).',
  })
  async setupAccount(@Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    await ctx.services.rateLimits.consume('authSetup', userId);
    const account = await ctx.services.get(AccountsService).setup(userId);
    return { ...account, wallets: await ctx.loaders.get(walletsLoaders).byUserId.load(userId) };
  }

  @Query(() => AccountType, { description: 'The caller: user id and wallets (rate limited per user).' })
  async me(@Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    await ctx.services.rateLimits.consume('authMe', userId);
    const [account, wallets] = await Promise.all([
      ctx.services.get(AccountsService).get(userId),
      ctx.loaders.get(walletsLoaders).byUserId.load(userId),
    ]);
    return { ...account, wallets };
  }
}
