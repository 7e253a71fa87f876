export { PortfolioService } from './portfolio.service';
export { TradeHistoryService, type WeeklyRankView } from './trade-history.service';
export { PortfolioValuationService, markStatus } from './portfolio-valuation.service';
export { MarksService, bookMid, type YesMark } from './marks.service';
export { OrderStateEnum, OrderType, PositionStatusEnum, PositionType } from './portfolio.types';
export * from './portfolio.limits';
export * from './portfolio.models';
