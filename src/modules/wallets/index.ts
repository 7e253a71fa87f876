export { WalletsService, type ProvisionedWallet } from './wallets.service';
export { WalletType, ChainEnum } from './wallets.types';
export { createWalletProvider, type WalletProvider } from './wallet-provider.client';
export { createChainBalancesClient, type ChainBalancesClient } from './chain-balances.client';
export { canonicalAddress, addressProblem, toChecksumAddress } from './chain-address';
export * from './wallets.models';
export * from './wallets.limits';
