import { defineModule, provide } from '../../kernel';
import { LedgerService } from '../ledger/ledger.service';
import { createChainBalancesClient } from './chain-balances.client';
import { createWalletProvider } from './wallet-provider.client';
import { walletsLoaders } from './wallets.loaders';
import { WalletsResolver } from './wallets.resolver';
import { WalletsService } from './wallets.service';

export const walletsModule = defineModule({
  name: 'wallets',
  resolvers: [WalletsResolver],
  services: [
    provide(
      WalletsService,
      ({ db, config, get }) =>
        new WalletsService(
          db.prisma,
          createWalletProvider(config),
          createChainBalancesClient(config),
          get(LedgerService),
        ),
    ),
  ],
  loaders: [walletsLoaders],
});
