export { MarketsService } from './markets.service';
export { findCounterpart, pairMarkets, type MarketPair } from './market-matching';
export { fromVenueError, venueCall } from './venue-errors';
export * from './markets.models';
export * from './markets.limits';
