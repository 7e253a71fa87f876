import { z } from 'zod';
import {
  ImportWalletDocument,
  PolygonBalancesDocument,
  RemoveWalletDocument,
  SolanaBalancesDocument,
  WalletBalanceDocument,
  WalletsDocument,
} from '../schema/generated/operations';
import { CHAINS } from '../src/modules/wallets/wallets.limits';
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
      'Link an external wallet: polygon 0x + 40 hex (EIP-55 checksum when mixed case), solana base58 of 32 bytes.',
    params: {
      body: z.object({
        chain: z.enum(CHAINS, { error: `must be one of ${CHAINS.join(', ')}` }),
        address: requiredStr(100),
      }),
    },
    document: ImportWalletDocument,
    result: 'importWallet',
    status: 201,
    errors: [400, 401, 409],
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
