import { defineModule, provide } from '../../../kernel';
import { toMicros } from '../../../money/money';
import { EventsService } from '../../events/events.service';
import { ExecutionService } from '../../execution/execution.service';
import { IdempotencyService } from '../../idempotency/idempotency.service';
import { MarketsService } from '../../markets/markets.service';
import { MarketBooks } from '../../routing/market-books';
import { CopytradeResolver } from './copytrade.resolver';
import { CopytradeService } from './copytrade.service';
import { copytradeSettings } from './copytrade.settings';

export const copytradeModule = defineModule({
  name: 'social/copytrade',
  settings: copytradeSettings,
  resolvers: [CopytradeResolver],
  services: [
    provide(CopytradeService, ({ db, config, get }) => {
      const caps = config.copytrade;
      return new CopytradeService({
        prisma: db.prisma,
        execution: get(ExecutionService),
        markets: get(MarketsService),
        events: get(EventsService),
        books: get(MarketBooks),
        idempotency: get(IdempotencyService),
        caps: {
          maxTradeMicros: toMicros(caps.maxTradeUsd),
          maxDailyMicros: toMicros(caps.maxDailyUsd),
          maxOpenPositions: caps.maxOpenPositions,
          allowedCategories: caps.allowedCategories,
          blockedCategories: caps.blockedCategories,
          maxDeviationMicros: toMicros(caps.maxPriceDeviation),
        },
      });
    }),
  ],
  rateLimits: (config) => ({ copytrade: { limit: config.copytrade.perMinute, windowMs: 60_000 } }),
});
