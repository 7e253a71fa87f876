/** The chains wallets live on: the `chain` argument of the wallet and withdrawal routes. */
export const CHAINS = ['polygon', 'solana'] as const;
export type Chain = (typeof CHAINS)[number];

/** Longest accepted signature text (polygon: 132 characters; solana: about 88). */
export const SIGNATURE_MAX_LENGTH = 200;
