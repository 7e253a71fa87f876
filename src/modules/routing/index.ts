export { RoutingService, type CostRundownQuery, type RouteRequest, type RoutingOptions } from './routing.service';
export { MarketBooks, type BookRef } from './market-books';
export * from './order-book.math';
export * from './routing.models';
export * from './routing.limits';
