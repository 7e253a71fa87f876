export { EventsService, filterMarkets } from './events.service';
export type { ListEventsQuery, DiscoverEventsQuery, MarketFilter } from './events.service';
export { createEventsLoaders, type EventsLoaders } from './events.loaders';
export { EventsResolver, MarketFieldsResolver } from './events.resolver';
export * from './events.models';
export * from './events.limits';
