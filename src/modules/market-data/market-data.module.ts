import { SignedCursor } from '../../http/signed-cursor';
import { defineModule, provide } from '../../kernel';
import { ApiKeyGate } from '../api-keys/api-key.gate';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { UsageRecorder } from '../usage/usage.recorder';
import { MarketDataResolver } from './market-data.resolver';
import { MarketDataService } from './market-data.service';
import { marketDataSettings } from './market-data.settings';

/** The market-data surface: its access gate (key, plan limit, usage, headers) and its catalog reads. */
export const marketDataModule = defineModule({
  name: 'market-data',
  settings: marketDataSettings,
  resolvers: [MarketDataResolver],
  services: [
    provide(
      ApiKeyGate,
      ({ infra, config, now, get }) =>
        new ApiKeyGate(get(ApiKeysService), infra.rateLimiter, get(UsageRecorder), {
          rateLimit: config.marketData.rateLimit,
          costUnit: config.graphql.costUnit,
          now,
        }),
    ),
    provide(
      MarketDataService,
      ({ db, config }) => new MarketDataService(db.prisma, new SignedCursor(config.cursorSecret)),
    ),
  ],
});
