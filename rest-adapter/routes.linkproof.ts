import { z } from 'zod';
import { CreateProofLinkDocument, MyWalletProofDocument, WalletProofDocument } from '../schema/generated/operations';
import { route } from './route.types';

const common = { surface: 'trading', tags: ['linkproof'] } as const;

/** Link proof through the identity provider. */
export const linkProofRoutes = [
  route({
    ...common,
    id: 'createProofLink',
    method: 'POST',
    path: '/linkproof/proof-link',
    summary:
      "A proof deep link for the caller's primary Solana wallet (400 without one; 503 when the identity " +
      'provider fails).',
    auth: 'bearer',
    document: CreateProofLinkDocument,
    result: 'createProofLink',
    errors: [400, 401, 503],
  }),
  route({
    ...common,
    id: 'verifyWalletProof',
    method: 'GET',
    path: '/linkproof/verify/{wallet}',
    summary: "A Solana wallet's proof status (400 not a Solana address; 502 when the proof API fails).",
    auth: 'none',
    params: {
      path: z.object({
        wallet: z.string({ error: 'is required' }).max(100, { error: 'must be at most 100 characters' }),
      }),
    },
    document: WalletProofDocument,
    result: 'walletProof',
    errors: [400, 502],
  }),
  route({
    ...common,
    id: 'proofStatus',
    method: 'POST',
    path: '/linkproof/proof-status',
    summary:
      "The proof status of the caller's primary Solana wallet (`no_wallet` without one; 502 when the proof API fails).",
    auth: 'bearer',
    document: MyWalletProofDocument,
    result: 'myWalletProof',
    errors: [401, 502],
  }),
];
