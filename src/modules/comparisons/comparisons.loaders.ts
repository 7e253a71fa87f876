import DataLoader from 'dataloader';
import type { MarketSummaryView } from '../market-data/market-data.models';
import type { ComparisonsService } from './comparisons.service';

/** Per-request loaders of the comparisons domain; batches return in key order. */
export function createComparisonsLoaders(comparisons: ComparisonsService) {
  return {
    /** Keyed by `venue:venueEventId`. */
    marketsByVenueEvent: new DataLoader<string, MarketSummaryView[]>((keys) => comparisons.marketsByVenueEvent(keys)),
  };
}

export type ComparisonsLoaders = ReturnType<typeof createComparisonsLoaders>;
