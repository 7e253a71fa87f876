import { defineModule, provide } from '../../kernel';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { UsageRecorder } from './usage.recorder';
import { UsageResolver } from './usage.resolver';
import { UsageService } from './usage.service';

export const usageModule = defineModule({
  name: 'usage',
  resolvers: [UsageResolver],
  services: [
    provide(UsageRecorder, ({ db, config, now, logger, get }) => {
      const apiKeys = get(ApiKeysService);
      return new UsageRecorder(db.prisma, {
        flushIntervalMs: config.marketData.usageFlushMs,
        now,
        onLastUsed: (lastUsed) => apiKeys.touch(lastUsed),
        onError: (err) => logger.error({ err }, 'API usage flush failed'),
      });
    }),
    provide(UsageService, ({ db, now, get }) => new UsageService(db.prisma, get(UsageRecorder), now)),
  ],
  tasks: [
    {
      // Buffered usage is written before the database closes: a graceful stop loses no count.
      // Per process: each process counts its own requests and adds them to the stored totals.
      name: 'usage flush',
      start: ({ get }) => get(UsageRecorder).start(),
      stop: ({ get }) => get(UsageRecorder).stop(),
    },
  ],
});
