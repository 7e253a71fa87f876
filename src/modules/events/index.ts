export { EventsService, filterMarkets } from './events.service';
export type { ListEventsQuery, DiscoverEventsQuery, MarketFilter } from './events.service';
export * from './events.models';
export * from './events.limits';
