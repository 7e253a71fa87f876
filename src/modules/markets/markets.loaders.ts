import { defineLoaders, type LoadersOf } from '../../kernel';
import DataLoader from 'dataloader';
import { MarketsService } from './markets.service';

/** Per-request loaders of the market screens; batches return in key order. */
export const marketsLoaders = defineLoaders('markets', (services) => {
  const markets = services.get(MarketsService);
  return {
    /** By internal market id `venue:marketId`; null when the catalog does not hold it. */
    marketById: new DataLoader((ids: readonly string[]) => markets.marketsByIds(ids)),
    eventById: new DataLoader((ids: readonly string[]) => markets.eventsByIds(ids)),
  };
});

export type MarketsLoaders = LoadersOf<typeof marketsLoaders>;
