import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { ChainArgs, ImportWalletArgs, WalletIdArgs } from './wallets.inputs';
import { AggregateBalanceType, ChainBalancesType, WalletType } from './wallets.types';
import { walletsLoaders } from './wallets.loaders';
import { WalletsService } from './wallets.service';

@Resolver(() => WalletType)
export class WalletsResolver {
  @Query(() => [WalletType], { description: "The caller's wallets across chains, oldest first." })
  async wallets(@Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.loaders.get(walletsLoaders).byUserId.load(userId);
  }

  @Mutation(() => WalletType, { description: 'Link an external wallet (409 when it is linked already, by anyone).' })
  async importWallet(@Args() a: ImportWalletArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(WalletsService).import(userId, a.chain, a.address);
  }

  @Mutation(() => WalletType, { description: 'Unlink an imported wallet; provisioned wallets cannot be removed.' })
  async removeWallet(@Args() a: WalletIdArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(WalletsService).remove(userId, a.id);
  }

  @Query(() => AggregateBalanceType, {
    description: "The caller's total in USD: ledger balance plus on-chain holdings.",
  })
  async walletBalance(@Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(WalletsService).aggregate(userId);
  }

  @Query(() => ChainBalancesType, {
    description: "USDC and native-token holdings of the caller's wallets on one chain.",
  })
  async chainBalances(@Args() a: ChainArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(WalletsService).chainBalances(userId, a.chain);
  }
}
