export { AccountsService, type AccountView } from './accounts.service';
