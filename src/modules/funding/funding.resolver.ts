import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { FundingAmountArgs, FundingPageArgs, WithdrawArgs } from './funding.inputs';
import { FundingPageType, FundingTransactionType, WithdrawalPageType, WithdrawalType } from './funding.types';
import { FundingService } from './funding.service';
import { WithdrawalsService } from './withdrawals.service';

/** The `Idempotency-Key` request header money-moving mutations honour. */
const idempotencyKey = (ctx: GraphQLContext) => ctx.header('idempotency-key');

/**
 * A withdrawal's caller: the user token, or the wallet-auth token sent instead of it (step-up; its
 * subject is the user). Neither valid: the user token's 401.
 */
async function withdrawingCaller(ctx: GraphQLContext): Promise<{ userId: string; walletAuth: boolean }> {
  try {
    return { userId: (await ctx.auth.requireUser()).userId, walletAuth: false };
  } catch (userError) {
    if (ctx.auth.bearer() === undefined) throw userError;
    const w = await ctx.auth.requireWallet().catch(() => Promise.reject(userError as Error));
    return { userId: w.userId, walletAuth: true };
  }
}

@Resolver()
export class FundingResolver {
  @Mutation(() => FundingTransactionType, {
    description:
      'Start a crypto onramp session with the payment processor (Idempotency-Key honoured; rate limited per user).',
  })
  async createOnrampSession(@Args() a: FundingAmountArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    // The limit is spent only when the request runs: a replay of its Idempotency-Key is free.
    const admit = () => ctx.services.rateLimits.consume('onramp', userId);
    return ctx.services.get(FundingService).onramp(userId, a.amount, a.currency, idempotencyKey(ctx), admit);
  }

  @Mutation(() => FundingTransactionType, {
    description: 'Legacy: a fiat payment intent (Idempotency-Key honoured; rate limited per user).',
  })
  async createPaymentIntent(@Args() a: FundingAmountArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    // As for onramp sessions: a replay of its Idempotency-Key spends nothing.
    const admit = () => ctx.services.rateLimits.consume('paymentIntent', userId);
    return ctx.services.get(FundingService).paymentIntent(userId, a.amount, a.currency, idempotencyKey(ctx), admit);
  }

  @Query(() => FundingPageType, { description: "The caller's deposits, newest first." })
  async fundingHistory(@Args() a: FundingPageArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(FundingService).history(userId, a.limit, a.offset);
  }

  @Mutation(() => WithdrawalType, {
    description:
      'Queue a withdrawal; the amount is held at once (Idempotency-Key honoured; rate limited per user). With the ' +
      'user token the destination must be one of your verified wallets on the chain (an import once verified for ' +
      'the cooldown); with the wallet-auth token any address valid for the chain.',
  })
  async requestWithdrawal(@Args() a: WithdrawArgs, @Ctx() ctx: GraphQLContext) {
    const { userId, walletAuth } = await withdrawingCaller(ctx);
    // Spent only when the request runs: a replay of its Idempotency-Key is free.
    const admit = () => ctx.services.rateLimits.consume('withdraw', userId);
    return ctx.services
      .get(WithdrawalsService)
      .request(
        userId,
        { amount: a.amount, chain: a.chain, destination: a.destination },
        { walletAuth, admit },
        idempotencyKey(ctx),
      );
  }

  @Query(() => WithdrawalPageType, { description: "The caller's withdrawals, newest first." })
  async withdrawals(@Args() a: FundingPageArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(WithdrawalsService).list(userId, a.limit, a.offset);
  }
}
