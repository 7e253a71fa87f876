export { RewardsService } from './rewards.service';
export { RewardClaimsService } from './reward-claims.service';
export { ReferralsService } from './referrals.service';
export { RewardsAccrual, feeKey } from './rewards-accrual.service';
export { RewardsReconciliation } from './reconciliation.service';
export * from './rewards.limits';
export * from './rewards.math';
export type * from './rewards.models';
export type * from './reconciliation.models';
