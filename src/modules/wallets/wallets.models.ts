import type { Chain } from './wallets.limits';

export const WALLET_KINDS = ['provisioned', 'imported'] as const;
export type WalletKind = (typeof WALLET_KINDS)[number];

/** `unverified` until the owner signs a challenge; provisioned wallets are `verified`. */
export const WALLET_VERIFICATIONS = ['unverified', 'verified'] as const;
export type WalletVerification = (typeof WALLET_VERIFICATIONS)[number];

export interface WalletView {
  id: string;
  userId: string;
  chain: Chain;
  address: string;
  kind: WalletKind;
  createdAt: Date;
  verification: WalletVerification;
  verifiedAt: Date | null;
}

/** A one-time ownership challenge: sign `message` with the wallet's key before `expiresAt`. */
export interface WalletChallengeView {
  walletId: string;
  chain: Chain;
  address: string;
  /** The exact text to sign (personal_sign on polygon, ed25519 over its UTF-8 bytes on solana). */
  message: string;
  nonce: string;
  expiresAt: Date;
}

/** One wallet's on-chain holdings and their USD value. */
export interface WalletBalanceView {
  walletId: string;
  address: string;
  kind: WalletKind;
  usdc: number;
  native: number;
  usdValue: number;
}

/** The caller's wallets on one chain with their holdings. */
export interface ChainBalancesView {
  chain: Chain;
  nativeSymbol: string;
  nativeUsdPrice: number;
  wallets: WalletBalanceView[];
  totalUsdc: number;
  totalNative: number;
  totalUsd: number;
}

/** The caller's money in USD: ledger balance plus on-chain holdings. */
export interface AggregateBalanceView {
  currency: 'USD';
  /** available + held + onchain. */
  total: number;
  /** Ledger funds free to trade or withdraw. */
  available: number;
  /** Ledger funds held by pending withdrawals (still the caller's). */
  held: number;
  /** USD value of the caller's wallets on every chain. */
  onchain: number;
  chains: { chain: Chain; usd: number }[];
  prices: { symbol: string; usd: number }[];
}

export const WALLET_VIEW = {
  id: true,
  userId: true,
  chain: true,
  address: true,
  kind: true,
  createdAt: true,
  verification: true,
  verifiedAt: true,
} as const;
