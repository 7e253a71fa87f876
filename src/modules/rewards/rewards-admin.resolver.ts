import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { instant, ReplayRewardsArgs, RewardsWindowArgs } from './rewards.inputs';
import { RewardExportRowObject, RewardsReconciliationObject, RewardsReplayReportObject } from './reconciliation.types';
import { RewardsReconciliation } from './reconciliation.service';

/** Reconciliation of the rewards ledger against the fees (X-Rewards-Admin-Token). */
@Resolver()
export class RewardsAdminResolver {
  @Query(() => RewardsReconciliationObject, {
    description: 'The rewards ledger against the trading fees of a window (X-Rewards-Admin-Token).',
  })
  rewardsReconciliation(@Args() a: RewardsWindowArgs, @Ctx() ctx: GraphQLContext) {
    ctx.auth.requireHeaderToken('rewardsAdmin');
    const s = ctx.services.get(RewardsReconciliation);
    return s.summary(s.window(instant(a.from), instant(a.to)));
  }

  @Query(() => [RewardExportRowObject], {
    description: 'The rewards ledger rows accrued in a window, oldest first (X-Rewards-Admin-Token).',
  })
  rewardsExport(@Args() a: RewardsWindowArgs, @Ctx() ctx: GraphQLContext) {
    ctx.auth.requireHeaderToken('rewardsAdmin');
    const s = ctx.services.get(RewardsReconciliation);
    return s.exportRows(s.window(instant(a.from), instant(a.to)));
  }

  @Mutation(() => RewardsReplayReportObject, {
    description:
      'Write the rewards the fees of a window earn and lack (idempotent: a second replay writes nothing) ' +
      '(X-Rewards-Admin-Token).',
  })
  replayRewards(@Args() a: ReplayRewardsArgs, @Ctx() ctx: GraphQLContext) {
    ctx.auth.requireHeaderToken('rewardsAdmin');
    const s = ctx.services.get(RewardsReconciliation);
    return s.replay(s.window(instant(a.from), instant(a.to)));
  }
}
