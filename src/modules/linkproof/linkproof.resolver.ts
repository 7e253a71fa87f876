import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { VerifyWalletArgs } from './linkproof.inputs';
import { ProofLinkObject, WalletProofObject } from './linkproof.types';
import { LinkProofService } from './linkproof.service';

@Resolver()
export class LinkProofResolver {
  @Mutation(() => ProofLinkObject, {
    description:
      "A proof deep link for the caller's primary Solana wallet (400 without one; 503 when the identity " +
      'provider fails).',
  })
  async createProofLink(@Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(LinkProofService).proofLink(userId);
  }

  @Query(() => WalletProofObject, {
    description: "A Solana wallet's proof status (public; 502 when the provider fails).",
  })
  walletProof(@Args() a: VerifyWalletArgs, @Ctx() ctx: GraphQLContext) {
    return ctx.services.get(LinkProofService).verify(a.wallet);
  }

  @Query(() => WalletProofObject, { description: "The proof status of the caller's primary Solana wallet." })
  async myWalletProof(@Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(LinkProofService).status(userId);
  }
}
