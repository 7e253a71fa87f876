/** The chains wallets live on: the `chain` argument of the wallet and withdrawal routes. */
export const CHAINS = ['polygon', 'solana'] as const;
export type Chain = (typeof CHAINS)[number];
