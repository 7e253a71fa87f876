import type { ProofStatus } from './identity.client';

/** A proof deep link for the caller's primary Solana wallet. */
export interface ProofLinkView {
  wallet: string;
  chain: 'solana';
  url: string;
  expiresAt: Date;
}

/** `no_wallet`: the caller has no Solana wallet to prove. */
export type WalletProofState = ProofStatus | 'no_wallet';

/** Where a wallet's proof stands, as the provider reports it. */
export interface WalletProofView {
  wallet: string | null;
  chain: 'solana';
  status: WalletProofState;
  verified: boolean;
  verifiedAt: Date | null;
  checkedAt: Date;
}
