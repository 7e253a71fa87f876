import DataLoader from 'dataloader';
import type { WalletView } from './wallets.models';
import type { WalletsService } from './wallets.service';

/** Per-request loaders of the wallets domain; batches return in key order. */
export function createWalletsLoaders(wallets: WalletsService) {
  return {
    byUserId: new DataLoader<string, WalletView[]>((ids) => wallets.byUserIds(ids)),
  };
}

export type WalletsLoaders = ReturnType<typeof createWalletsLoaders>;
