import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { ApplyReferralArgs, ClaimRewardsArgs, RewardsPageArgs } from './rewards.inputs';
import {
  ReferralCodeObject,
  ReferralStatusObject,
  RewardClaimObject,
  RewardEventPageObject,
  RewardPageObject,
  RewardsSummaryObject,
} from './rewards.types';
import { ReferralsService } from './referrals.service';
import { RewardClaimsService } from './reward-claims.service';
import { RewardsService } from './rewards.service';

@Resolver()
export class RewardsResolver {
  @Query(() => RewardsSummaryObject, {
    description: "The caller's cashback and referral USD totals, points and claimable amount.",
  })
  async rewardsSummary(@Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(RewardsService).summary(userId);
  }

  @Query(() => RewardPageObject, { description: "The caller's rewards ledger, newest first." })
  async rewardsHistory(@Args() a: RewardsPageArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(RewardsService).history(userId, a.limit, a.offset);
  }

  @Query(() => RewardEventPageObject, { description: "Every change of the caller's rewards, newest first." })
  async rewardsAudit(@Args() a: RewardsPageArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(RewardsService).audit(userId, a.limit, a.offset);
  }

  @Query(() => ReferralStatusObject, { description: "The caller's referral code and the referral they applied." })
  async referralStatus(@Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(ReferralsService).status(userId);
  }

  @Mutation(() => ReferralCodeObject, { description: "Get or create the caller's referral code." })
  async referralCode(@Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(ReferralsService).code(userId);
  }

  @Mutation(() => ReferralStatusObject, {
    description:
      "Apply another user's referral code: 400 unknown or own code; 409 already referred, first fee already " +
      'charged, or a loop.',
  })
  async applyReferralCode(@Args() a: ApplyReferralArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    return ctx.services.get(ReferralsService).apply(userId, a.code);
  }

  @Mutation(() => RewardClaimObject, {
    description:
      "Claim every available USD reward to one of the caller's wallets: credited to the balance " +
      '(Idempotency-Key honoured; rate limited per user).',
  })
  async claimRewards(@Args() a: ClaimRewardsArgs, @Ctx() ctx: GraphQLContext) {
    const { userId } = await ctx.auth.requireUser();
    // The limit is spent only when the claim runs: a replay of its Idempotency-Key is free.
    const admit = () => ctx.services.rateLimits.consume('rewardsClaim', userId);
    return ctx.services.get(RewardClaimsService).claim(userId, a.walletId, ctx.header('idempotency-key'), admit);
  }
}
