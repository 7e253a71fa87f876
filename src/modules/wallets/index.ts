export { WalletsService, type ProvisionedWallet } from './wallets.service';
export { WalletsResolver } from './wallets.resolver';
export { WalletType, ChainEnum } from './wallets.types';
export { createWalletsLoaders, type WalletsLoaders } from './wallets.loaders';
export { createWalletProvider, type WalletProvider } from './wallet-provider.client';
export { createChainBalancesClient, type ChainBalancesClient } from './chain-balances.client';
export { canonicalAddress, addressProblem, toChecksumAddress } from './chain-address';
export * from './wallets.models';
