export { CatalogService, marketKey, type CatalogSource, type SyncReport } from './catalog.service';
export { openSimulatedWorld } from './world-anchor';
export { IngestionResolver } from './ingestion.resolver';
export { TradeIngestService, toTradeRow, type TradeIngestOptions } from './trade-ingest.service';
