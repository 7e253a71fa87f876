export { HistoryService, type HistoryServiceOptions } from './charts.service';
export { bucketStart, bucketize, normalizeHistory, type CandleRow, type SeriesKind } from './candles';
export * from './charts.limits';
export * from './charts.models';
