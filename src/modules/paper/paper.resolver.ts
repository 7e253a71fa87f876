import { Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import type { PaperAccountView } from './paper.models';
import { PaperAccounts } from './paper.service';
import { PaperAccountType } from './paper.types';

@Resolver()
export class PaperResolver {
  @Query(() => PaperAccountType, { description: "The caller's paper (simulation) account." })
  async paperAccount(@Ctx() ctx: GraphQLContext): Promise<PaperAccountView> {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(PaperAccounts).account(userId);
  }

  @Mutation(() => PaperAccountType, {
    description: "Puts the caller's paper balance back to the starting balance and closes every paper position.",
  })
  async resetPaperAccount(@Ctx() ctx: GraphQLContext): Promise<PaperAccountView> {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(PaperAccounts).reset(userId);
  }
}
