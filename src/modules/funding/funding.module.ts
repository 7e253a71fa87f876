import { defineModule, provide } from '../../kernel';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { LedgerService } from '../ledger/ledger.service';
import { NOTIFY } from '../notifications/notifications.service';
import { FundingResolver } from './funding.resolver';
import { FundingService } from './funding.service';
import { PAYMENTS_CLIENT, createPaymentsClient } from './payments.client';
import { WithdrawalsService, withdrawalNotification } from './withdrawals.service';
import { fundingSettings } from './funding.settings';

export const fundingModule = defineModule({
  name: 'funding',
  settings: fundingSettings,
  resolvers: [FundingResolver],
  services: [
    provide(PAYMENTS_CLIENT, ({ config }) => createPaymentsClient(config)),
    provide(
      FundingService,
      ({ db, get }) => new FundingService(db.prisma, get(PAYMENTS_CLIENT), get(IdempotencyService)),
    ),
    provide(WithdrawalsService, ({ db, get, logger, config, owner }) => {
      const notify = get(NOTIFY);
      return new WithdrawalsService(
        db.prisma,
        get(LedgerService),
        get(IdempotencyService),
        get(PAYMENTS_CLIENT),
        { importCooldownMs: config.withdrawals.importCooldownHours * 3_600_000 },
        logger,
        (userId, w) => void notify([withdrawalNotification(userId, w)]),
        { claimMs: config.withdrawals.claimMs, owner },
      );
    }),
  ],
  tasks: [
    {
      name: 'withdrawal dispatch',
      exclusive: true,
      start: ({ get, config }) => get(WithdrawalsService).start(config.withdrawals.dispatchMs),
      stop: ({ get }) => get(WithdrawalsService).stop(),
    },
  ],
  rateLimits: (config) => ({
    onramp: { limit: config.limits.onrampPerMinute, windowMs: 60_000 },
    paymentIntent: { limit: config.limits.paymentIntentsPerMinute, windowMs: 60_000 },
    withdraw: { limit: config.withdrawals.perMinute, windowMs: 60_000 },
  }),
});
