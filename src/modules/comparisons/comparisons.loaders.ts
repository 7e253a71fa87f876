import { defineLoaders, type LoadersOf } from '../../kernel';
import DataLoader from 'dataloader';
import type { MarketSummaryView } from '../market-data/market-data.models';
import { ComparisonsService } from './comparisons.service';

/** Per-request loaders of the comparisons domain; batches return in key order. */
export const comparisonsLoaders = defineLoaders('comparisons', (services) => {
  const comparisons = services.get(ComparisonsService);
  return {
    /** Keyed by `venue:venueEventId`. */
    marketsByVenueEvent: new DataLoader<string, MarketSummaryView[]>((keys) => comparisons.marketsByVenueEvent(keys)),
  };
});

export type ComparisonsLoaders = LoadersOf<typeof comparisonsLoaders>;
