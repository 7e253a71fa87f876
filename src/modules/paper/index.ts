export { PaperAccounts } from './paper.service';
export * from './paper.models';
