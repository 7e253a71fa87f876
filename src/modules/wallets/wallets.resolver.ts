import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { ChainArgs, ImportWalletArgs, VerifyWalletArgs, WalletIdArgs } from './wallets.inputs';
import { AggregateBalanceType, ChainBalancesType, WalletChallengeType, WalletType } from './wallets.types';
import { walletsLoaders } from './wallets.loaders';
import { WalletsService } from './wallets.service';

@Resolver(() => WalletType)
export class WalletsResolver {
  @Query(() => [WalletType], { description: "The caller's wallets across chains, oldest first." })
  async wallets(@Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.loaders.get(walletsLoaders).byUserId.load(userId);
  }

  @Mutation(() => WalletType, {
    description:
      'Link an external wallet, unverified until its owner signs a challenge (409 when the caller linked it ' +
      'already, another account verified it, or another account linked it and `claim` is not set; 429 beyond ' +
      'the per-user limit).',
  })
  async importWallet(@Args() a: ImportWalletArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    await ctx.services.rateLimits.consume('walletImport', userId);
    return ctx.services.get(WalletsService).import(userId, a.chain, a.address, a.claim === true);
  }

  @Mutation(() => WalletChallengeType, {
    description:
      "A one-time message to sign with the wallet's key (replaces any open one; expires). 404: not the " +
      "caller's; 409: verified already, or another user verified the address.",
  })
  async walletChallenge(@Args() a: WalletIdArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    await ctx.services.rateLimits.consume('walletVerify', userId);
    return ctx.services.get(WalletsService).challenge(userId, a.id);
  }

  @Mutation(() => WalletType, {
    description:
      'Verify a wallet with a signature of its open challenge; takes the address over from other users who ' +
      'only imported it. 400 names `challenge` (none open, used or expired) or `signature` (malformed or ' +
      'not by the address).',
  })
  async verifyWallet(@Args() a: VerifyWalletArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    await ctx.services.rateLimits.consume('walletVerify', userId);
    return ctx.services.get(WalletsService).verify(userId, a.id, a.signature);
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
