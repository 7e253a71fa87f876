export { LedgerService } from './ledger.service';
export * from './ledger.models';
export * from './money';
export * from './fee-events';
