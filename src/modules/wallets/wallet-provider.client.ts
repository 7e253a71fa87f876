import { createHash, createHmac } from 'node:crypto';
import { z } from 'zod';
import type { AppConfig } from '../../config';
import { JsonHttpClient } from '../../upstreams/json-http';
import { base58 } from '@scure/base';
import { toChecksumAddress } from './chain-address';
import type { Chain } from './wallets.limits';

/** Creates the service-held wallets of a user (one per chain). */
export interface WalletProvider {
  /**
   * The address of `userId`'s wallet on `chain`. Idempotent: asking twice for
   * the same user and chain answers the same wallet.
   */
  provision(userId: string, chain: Chain): Promise<{ address: string }>;
}

/**
 * The wallet provider over HTTP: `POST {url}/v1/wallets` with `{ owner, chain }`
 * and an `Idempotency-Key` of `owner:chain`, answering `{ address }`.
 */
export class HttpWalletProvider implements WalletProvider {
  constructor(private readonly http: JsonHttpClient) {}

  async provision(userId: string, chain: Chain): Promise<{ address: string }> {
    const r = await this.http.request(
      { method: 'POST', path: '/v1/wallets', body: { owner: userId, chain }, idempotencyKey: `${userId}:${chain}` },
      z.object({ address: z.string().min(1).max(100) }),
    );
    return { address: r.address };
  }
}

/**
 * The simulated provider: addresses derived from the simulated world's keys,
 * the user and the chain (so provisioning is idempotent and reproducible):
 * HMAC-SHA-256 under the world's secret (production, SIM_SECRET), so an address
 * reveals nothing of it; SHA-256 with the demo world's number elsewhere.
 * Polygon: 20 bytes in EIP-55 case; Solana: base58 of 32 bytes.
 */
export class SimulatedWalletProvider implements WalletProvider {
  constructor(private readonly keys: { seed: number; secret?: Buffer }) {}

  async provision(userId: string, chain: Chain): Promise<{ address: string }> {
    const digest = this.keys.secret
      ? createHmac('sha256', this.keys.secret).update(`user-wallet|${userId}|${chain}`).digest()
      : createHash('sha256').update(`wallet|${this.keys.seed}|${userId}|${chain}`).digest();
    if (chain === 'polygon') return { address: toChecksumAddress(`0x${digest.subarray(0, 20).toString('hex')}`) };
    return { address: base58.encode(digest) };
  }
}

export function createWalletProvider(config: AppConfig): WalletProvider {
  const u = config.upstreams.walletProvider;
  if (!u.url) return new SimulatedWalletProvider(config.sim);
  return new HttpWalletProvider(
    new JsonHttpClient('wallet provider', { ...u, url: u.url }, config.upstreams.timeoutMs),
  );
}
