import { VENUE_READS_POLICY } from '../../graphql/venue-read-limit';
import { defineModule, provide } from '../../kernel';
import { CATALOG_CHANGED_TOPIC } from '../events/events.models';
import { MarketBookStore } from '../market-streams/book-store';
import { marketsLoaders } from './markets.loaders';
import { MarketScreensResolver, TradeMarketResolver } from './markets.resolver';
import { MarketsService } from './markets.service';
import { ShownTrades } from './shown-trades';
import { marketsSettings } from './markets.settings';

export const marketsModule = defineModule({
  name: 'markets',
  settings: marketsSettings,
  resolvers: [MarketScreensResolver, TradeMarketResolver],
  services: [
    provide(
      MarketsService,
      ({ db, venues, venueSources, memo, logger, get }) =>
        new MarketsService(db.prisma, venues, memo('markets', CATALOG_CHANGED_TOPIC), new ShownTrades(db.sql, logger), {
          store: get(MarketBookStore),
          sources: venueSources,
        }),
    ),
  ],
  loaders: [marketsLoaders],
  // Counted by every venue-reading field of the schema while a venue is live (src/graphql/venue-read-limit.ts).
  rateLimits: (config) => ({ [VENUE_READS_POLICY]: { limit: config.limits.venueReadsPerMinute, windowMs: 60_000 } }),
});
