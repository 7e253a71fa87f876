import { defineModule, provide } from '../../kernel';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { FeeListeners } from '../ledger/fee-events';
import { LedgerService } from '../ledger/ledger.service';
import { NOTIFY } from '../notifications/notifications.service';
import { RewardsReconciliation } from './reconciliation.service';
import { ReferralsService } from './referrals.service';
import { RewardClaimsService } from './reward-claims.service';
import { RewardsAccrual } from './rewards-accrual.service';
import { RewardsAdminResolver } from './rewards-admin.resolver';
import { RewardsResolver } from './rewards.resolver';
import { RewardsService } from './rewards.service';
import { rewardsSettings } from './rewards.settings';

export const rewardsModule = defineModule({
  name: 'rewards',
  settings: rewardsSettings,
  resolvers: [RewardsResolver, RewardsAdminResolver],
  services: [
    provide(RewardsService, ({ db, now, logger, get }) => new RewardsService(db.prisma, get(NOTIFY), now, logger)),
    // Told of every trading fee inside the transaction that charges it: rewards accrue with the fee.
    provide(RewardsAccrual, ({ config, get }) => {
      const accrual = new RewardsAccrual(config.rewards, config.rewards.holdSeconds);
      get(FeeListeners).add(accrual);
      return accrual;
    }),
    provide(
      RewardClaimsService,
      ({ now, get }) =>
        new RewardClaimsService(get(LedgerService), get(IdempotencyService), get(RewardsService), get(NOTIFY), now),
    ),
    provide(ReferralsService, ({ db }) => new ReferralsService(db.prisma)),
    provide(
      RewardsReconciliation,
      ({ db, config, now, get }) => new RewardsReconciliation(db.prisma, get(RewardsAccrual), config.rewards, now),
    ),
  ],
  tasks: [
    {
      name: 'reward settlement',
      exclusive: true,
      start: ({ get, config }) => get(RewardsService).start(config.rewards.settleMs),
      stop: ({ get }) => get(RewardsService).stop(),
    },
  ],
  rateLimits: (config) => ({ rewardsClaim: { limit: config.limits.rewardsClaimPerMinute, windowMs: 60_000 } }),
});
