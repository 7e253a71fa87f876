import { defineLoaders, type LoadersOf } from '../../kernel';
import DataLoader from 'dataloader';
import type { WalletView } from './wallets.models';
import { WalletsService } from './wallets.service';

/** Per-request loaders of the wallets domain; batches return in key order. */
export const walletsLoaders = defineLoaders('wallets', (services) => {
  const wallets = services.get(WalletsService);
  return {
    byUserId: new DataLoader<string, WalletView[]>((ids) => wallets.byUserIds(ids)),
  };
});

export type WalletsLoaders = LoadersOf<typeof walletsLoaders>;
