export { CopytradeService } from './copytrade.service';
export * from './copytrade.limits';
