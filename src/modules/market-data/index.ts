export { MarketDataService, type EventListQuery, type MarketListQuery } from './market-data.service';
export { keysetPage, mapPage, type CursorPage, type KeysetQuery } from './cursor-page';
export * from './market-data.models';
export * from './market-data.limits';
