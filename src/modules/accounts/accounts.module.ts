import { defineModule, provide } from '../../kernel';
import { WalletsService } from '../wallets/wallets.service';
import { AccountsResolver } from './accounts.resolver';
import { AccountsService } from './accounts.service';
import { accountsSettings } from './accounts.settings';

export const accountsModule = defineModule({
  name: 'accounts',
  settings: accountsSettings,
  resolvers: [AccountsResolver],
  services: [provide(AccountsService, ({ db, get }) => new AccountsService(db.prisma, get(WalletsService)))],
  // Keyed by user id (these operations require a bearer token).
  rateLimits: (config) => ({
    authSetup: { limit: config.limits.authSetupPerMinute, windowMs: 60_000 },
    authMe: { limit: config.limits.authMePerMinute, windowMs: 60_000 },
  }),
});
