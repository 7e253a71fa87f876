export { AccountsService, type AccountView } from './accounts.service';
export { AccountsResolver } from './accounts.resolver';
