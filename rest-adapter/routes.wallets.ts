import { z } from 'zod';
import {
  ImportWalletDocument,
  PolygonBalancesDocument,
  RemoveWalletDocument,
  SolanaBalancesDocument,
  VerifyWalletDocument,
  WalletBalanceDocument,
  WalletChallengeDocument,
  WalletsDocument,
} from '../schema/generated/operations';
import { CHAINS, SIGNATURE_MAX_LENGTH } from '../src/modules/wallets/wallets.limits';
import { requiredStr } from './params';
import { route } from './route.types';

const common = { surface: 'trading', auth: 'bearer', tags: ['wallets'] } as const;

/** The caller's wallets and balances. */
export const walletRoutes = [
  route({
    ...common,
    id: 'listWallets',
    method: 'GET',
    path: '/api/wallets',
    summary: "The caller's wallets across chains (provisioned and imported), oldest first.",
    document: WalletsDocument,
    result: 'wallets',
    errors: [401],
  }),
  route({
    ...common,
    id: 'importWallet',
    method: 'POST',
    path: '/api/wallets/import',
    summary:
      'Link an external wallet: polygon 0x + 40 hex (EIP-55 checksum when mixed case), solana base58 of 32 bytes. ' +
      'It stays `unverified` (counting in no public figure) until its owner signs a challenge. 409 when the ' +
      'caller linked it already, another account verified it, or another account linked it: `claim: true` ' +
      'links it anyway so its owner can verify it with a challenge and take it over.',
    params: {
      body: z.object({
        chain: z.enum(CHAINS, { error: `must be one of ${CHAINS.join(', ')}` }),
        address: requiredStr(100),
        claim: z.boolean({ error: 'must be true or false' }).optional(),
      }),
    },
    document: ImportWalletDocument,
    result: 'importWallet',
    status: 201,
    errors: [400, 401, 409, 429],
  }),
  route({
    ...common,
    id: 'walletChallenge',
    method: 'POST',
    path: '/api/wallets/{id}/challenge',
    summary:
      "A one-time message to sign with the wallet's key, with its nonce and expiry (replaces any open one). " +
      "404: not the caller's wallet; 409: verified already, or another user verified the address.",
    params: { path: z.object({ id: requiredStr(100) }) },
    document: WalletChallengeDocument,
    result: 'walletChallenge',
    errors: [400, 401, 404, 409, 429],
  }),
  route({
    ...common,
    id: 'verifyWallet',
    method: 'POST',
    path: '/api/wallets/{id}/verify',
    summary:
      'Verify a wallet with a signature of its open challenge (polygon: EIP-191 personal_sign, 0x + 130 hex; ' +
      'solana: ed25519, base58 of 64 bytes). Other users who only imported the address lose it. 400 names ' +
      '`challenge` (none open, used or expired) or `signature`.',
    params: {
      path: z.object({ id: requiredStr(100) }),
      body: z.object({ signature: requiredStr(SIGNATURE_MAX_LENGTH) }),
    },
    document: VerifyWalletDocument,
    result: 'verifyWallet',
    errors: [400, 401, 404, 409, 429],
  }),
  route({
    ...common,
    id: 'removeWallet',
    method: 'DELETE',
    path: '/api/wallets/{id}',
    summary: 'Unlink an imported wallet (provisioned wallets: 400; not the caller’s: 404).',
    params: { path: z.object({ id: requiredStr(100) }) },
    document: RemoveWalletDocument,
    result: 'removeWallet',
    errors: [400, 401, 404],
  }),
  route({
    ...common,
    id: 'walletBalance',
    method: 'GET',
    path: '/api/wallets/balance',
    summary:
      'Aggregate USD balance: ledger (available + held) plus on-chain holdings (USDC 1:1, native tokens at ' +
      'the upstream price).',
    document: WalletBalanceDocument,
    result: 'walletBalance',
    errors: [401, 502],
  }),
  route({
    ...common,
    id: 'polygonBalances',
    method: 'GET',
    path: '/api/wallets/balance/polygon',
    summary: 'USDC and MATIC of each of the caller’s polygon wallets.',
    document: PolygonBalancesDocument,
    result: 'polygonBalances',
    errors: [401, 502],
  }),
  route({
    ...common,
    id: 'solanaBalances',
    method: 'GET',
    path: '/api/wallets/balance/solana',
    summary: 'USDC and SOL of each of the caller’s solana wallets.',
    document: SolanaBalancesDocument,
    result: 'solanaBalances',
    errors: [401, 502],
  }),
];
