export { CatalogService, marketKey, type CatalogSource, type SyncReport } from './catalog.service';
export { openSimulatedWorld } from './world-anchor';
export {
  ANNOUNCE_STEPS,
  TradeIngestService,
  fromTradeRow,
  inTradeKeyOrder,
  toTradeRow,
  type AnnounceStep,
  type Announcement,
  type TradeIngestOptions,
} from './trade-ingest.service';
export { isRetryableWriteConflict, withWriteRetry, type WriteRetryOptions } from './write-retry';
