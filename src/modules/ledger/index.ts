export { LedgerService } from './ledger.service';
export * from './ledger.models';
export * from './fee-events';
