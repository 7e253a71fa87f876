export { MarketBookStore, DEMAND_REFRESH_MS } from './book-store';
export { MarketKeeper } from './market-keeper';
export { VenueStreamStatus, STATUS_REFRESH_MS, STATUS_BELIEVED_MS } from './stream-status';
export * from './market-streams.models';
export { MarketFollowers } from './market-followers';
export { MARKET_STREAM_LIMITS } from './market-streams.limits';
export * from './market-stream.models';
