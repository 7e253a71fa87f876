/** The identity provider's word on a wallet's proof. */
export const PROOF_STATUSES = ['verified', 'pending', 'unverified', 'expired'] as const;
export type ProofStatus = (typeof PROOF_STATUSES)[number];

/** A proof deep link for the caller's primary Solana wallet. */
export interface ProofLinkView {
  wallet: string;
  chain: 'solana';
  url: string;
  expiresAt: Date;
}

/** `no_wallet`: the caller has no Solana wallet to prove. */
export const WALLET_PROOF_STATES = [...PROOF_STATUSES, 'no_wallet'] as const;
export type WalletProofState = (typeof WALLET_PROOF_STATES)[number];

/** Where a wallet's proof stands, as the provider reports it. */
export interface WalletProofView {
  wallet: string | null;
  chain: 'solana';
  status: WalletProofState;
  verified: boolean;
  verifiedAt: Date | null;
  checkedAt: Date;
}
