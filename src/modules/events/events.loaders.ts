import { defineLoaders, type LoadersOf } from '../../kernel';
import DataLoader from 'dataloader';
import type { MarketView } from './events.models';
import { EventsService } from './events.service';

/** Per-request loaders of the events domain; batches return in key order. */
export const eventsLoaders = defineLoaders('events', (services) => {
  const events = services.get(EventsService);
  return {
    marketsByEventId: new DataLoader<string, MarketView[]>((ids) => events.marketsByEventIds(ids)),
  };
});

export type EventsLoaders = LoadersOf<typeof eventsLoaders>;
