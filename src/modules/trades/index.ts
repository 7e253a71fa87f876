export { TRADES_TOPIC, type TradeEvent } from './trades.models';
export { TradeType } from './trades.types';
