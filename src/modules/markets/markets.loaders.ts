import DataLoader from 'dataloader';
import type { MarketsService } from './markets.service';

/** Per-request loaders of the market screens; batches return in key order. */
export function createMarketsLoaders(markets: MarketsService) {
  return {
    /** By internal market id `venue:marketId`; null when the catalog does not hold it. */
    marketById: new DataLoader((ids: readonly string[]) => markets.marketsByIds(ids)),
    eventById: new DataLoader((ids: readonly string[]) => markets.eventsByIds(ids)),
  };
}

export type MarketsLoaders = ReturnType<typeof createMarketsLoaders>;
