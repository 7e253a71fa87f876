import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../../context';
import type { ExecutionPrincipal } from '../../execution/execution.models';
import { CopytradeInput, checkCopytradeRequest } from './copytrade.inputs';
import { CopytradeResultType } from './copytrade.types';
import { CopytradeService } from './copytrade.service';

@Resolver()
export class CopytradeResolver {
  @Mutation(() => CopytradeResultType, {
    description:
      "Mirror a followed trader's trade through execution under the risk caps (bearer; live mode: the " +
      'wallet-auth token; rate limited per user; Idempotency-Key honoured). Answers once the order ended.',
  })
  async copytrade(@Arg('input', () => CopytradeInput) input: CopytradeInput, @Ctx() ctx: GraphQLContext) {
    const body = checkCopytradeRequest(input as unknown as Record<string, unknown>);
    let principal: ExecutionPrincipal;
    if (body.mode === 'live') {
      const w = await ctx.auth.requireWallet();
      principal = { userId: w.userId, live: true, walletToken: ctx.auth.bearer() };
    } else {
      principal = { userId: (await ctx.auth.requireUser()).userId, live: false };
    }
    // The limit is spent only when the copy runs: a replay of its Idempotency-Key is free.
    const admit = () => ctx.services.rateLimits.consume('copytrade', principal.userId);
    return ctx.services
      .get(CopytradeService)
      .copy(principal.userId, body, principal, ctx.header('idempotency-key'), admit);
  }
}
