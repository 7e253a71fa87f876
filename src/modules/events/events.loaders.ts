import DataLoader from 'dataloader';
import type { MarketView } from './events.models';
import type { EventsService } from './events.service';

/** Per-request loaders of the events domain; batches return in key order. */
export function createEventsLoaders(events: EventsService) {
  return {
    marketsByEventId: new DataLoader<string, MarketView[]>((ids) => events.marketsByEventIds(ids)),
  };
}

export type EventsLoaders = ReturnType<typeof createEventsLoaders>;
