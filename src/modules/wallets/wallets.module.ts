import { defineModule, provide } from '../../kernel';
import { LedgerService } from '../ledger/ledger.service';
import { createChainBalancesClient } from './chain-balances.client';
import { createWalletProvider } from './wallet-provider.client';
import { walletsLoaders } from './wallets.loaders';
import { WalletsResolver } from './wallets.resolver';
import { WalletsService } from './wallets.service';
import { walletsSettings } from './wallets.settings';

export const walletsModule = defineModule({
  name: 'wallets',
  settings: walletsSettings,
  resolvers: [WalletsResolver],
  services: [
    provide(
      WalletsService,
      ({ db, config, get, now }) =>
        new WalletsService(
          db.prisma,
          createWalletProvider(config),
          createChainBalancesClient(config),
          get(LedgerService),
          { challengeTtlMs: config.wallets.challengeTtlSeconds * 1000 },
          now,
        ),
    ),
  ],
  loaders: [walletsLoaders],
  rateLimits: (config) => ({
    walletImport: { limit: config.wallets.importPerMinute, windowMs: 60_000 },
    walletVerify: { limit: config.wallets.verifyPerMinute, windowMs: 60_000 },
  }),
});
