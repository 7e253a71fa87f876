export { TRADES_TOPIC, type TradeEvent } from './trades.models';
export { TradesResolver } from './trades.resolver';
export { TradeType } from './trades.types';
