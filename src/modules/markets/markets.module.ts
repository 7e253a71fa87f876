import { defineModule, provide } from '../../kernel';
import { CATALOG_CHANGED_TOPIC } from '../events/events.models';
import { marketsLoaders } from './markets.loaders';
import { MarketScreensResolver, TradeMarketResolver } from './markets.resolver';
import { MarketsService } from './markets.service';

export const marketsModule = defineModule({
  name: 'markets',
  resolvers: [MarketScreensResolver, TradeMarketResolver],
  services: [
    provide(
      MarketsService,
      ({ db, venues, memo }) => new MarketsService(db.prisma, venues, memo('markets', CATALOG_CHANGED_TOPIC)),
    ),
  ],
  loaders: [marketsLoaders],
});
