import { defineModule, provide } from '../../../kernel';
import { EventsService } from '../../events/events.service';
import { ExecutionService } from '../../execution/execution.service';
import { MarketsService } from '../../markets/markets.service';
import { MarketBooks } from '../../routing/market-books';
import { CopytradeResolver } from './copytrade.resolver';
import { CopytradeService } from './copytrade.service';

export const copytradeModule = defineModule({
  name: 'social/copytrade',
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
        caps: {
          maxTradeMicros: BigInt(caps.maxTradeUsd) * 1_000_000n,
          maxDailyMicros: BigInt(caps.maxDailyUsd) * 1_000_000n,
          maxOpenPositions: caps.maxOpenPositions,
          allowedCategories: caps.allowedCategories,
          blockedCategories: caps.blockedCategories,
          maxDeviationMicros: BigInt(Math.round(caps.maxPriceDeviation * 1e6)),
        },
      });
    }),
  ],
  rateLimits: (config) => ({ copytrade: { limit: config.copytrade.perMinute, windowMs: 60_000 } }),
});
