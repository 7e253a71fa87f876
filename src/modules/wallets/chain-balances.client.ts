import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AppConfig } from '../../config';
import { decimalToMicros } from '../../money';
import { JsonHttpClient } from '../../upstreams/json-http';
import type { Chain } from './wallets.limits';

/** The native token of each chain (gas token). */
export const NATIVE_SYMBOL: Record<Chain, string> = { polygon: 'MATIC', solana: 'SOL' };

/** On-chain holdings of some addresses of one chain, in micro-units. */
export interface ChainHoldings {
  /** USD price of the native token, micro-units. */
  nativeUsdPrice: bigint;
  /** By address: USDC and native token. Addresses the upstream omits hold nothing. */
  byAddress: Map<string, { usdc: bigint; native: bigint }>;
}

/** Reads stablecoin and native-token balances on a chain. */
export interface ChainBalancesClient {
  holdings(chain: Chain, addresses: readonly string[]): Promise<ChainHoldings>;
}

const decimal = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const micros = decimalToMicros(String(v));
  if (micros === null || micros < 0n) {
    ctx.addIssue({ code: 'custom', message: 'not a non-negative decimal' });
    return z.NEVER;
  }
  return micros;
});

const answer = z.object({
  nativeUsdPrice: decimal,
  balances: z.array(z.object({ address: z.string(), usdc: decimal, native: decimal })).max(1000),
});

/**
 * Chain balances over HTTP: `POST {url}/v1/balances` with `{ chain, addresses }`,
 * answering `{ nativeUsdPrice, balances: [{ address, usdc, native }] }` (decimal
 * strings or numbers, in token units).
 */
export class HttpChainBalances implements ChainBalancesClient {
  constructor(private readonly http: JsonHttpClient) {}

  async holdings(chain: Chain, addresses: readonly string[]): Promise<ChainHoldings> {
    const r = await this.http.request({ method: 'POST', path: '/v1/balances', body: { chain, addresses } }, answer);
    return {
      nativeUsdPrice: r.nativeUsdPrice,
      byAddress: new Map(r.balances.map((b) => [b.address, { usdc: b.usdc, native: b.native }])),
    };
  }
}

/** Simulated prices: MATIC $0.50, SOL $150. */
export const SIMULATED_NATIVE_PRICE: Record<Chain, bigint> = { polygon: 500_000n, solana: 150_000_000n };

/**
 * Simulated balances: a deterministic amount per address (0..500 USDC, 0..10
 * of the native token, to the cent and the milli-unit), fixed prices.
 */
export class SimulatedChainBalances implements ChainBalancesClient {
  async holdings(chain: Chain, addresses: readonly string[]): Promise<ChainHoldings> {
    const byAddress = new Map<string, { usdc: bigint; native: bigint }>();
    for (const a of addresses) {
      const d = createHash('sha256').update(`balance|${chain}|${a}`).digest();
      byAddress.set(a, {
        usdc: BigInt(d.readUInt32BE(0) % 50_001) * 10_000n,
        native: BigInt(d.readUInt32BE(4) % 10_001) * 1_000n,
      });
    }
    return { nativeUsdPrice: SIMULATED_NATIVE_PRICE[chain], byAddress };
  }
}

export function createChainBalancesClient(config: AppConfig): ChainBalancesClient {
  const u = config.upstreams.chainBalances;
  if (!u.url) return new SimulatedChainBalances();
  return new HttpChainBalances(new JsonHttpClient('chain balances', { ...u, url: u.url }, config.upstreams.timeoutMs));
}
