export { MarketsService } from './markets.service';
export { MarketScreensResolver, TradeMarketResolver } from './markets.resolver';
export { createMarketsLoaders, type MarketsLoaders } from './markets.loaders';
export { findCounterpart, pairMarkets, type MarketPair } from './market-matching';
export { fromVenueError, venueCall } from './venue-errors';
export * from './markets.models';
export * from './markets.limits';
