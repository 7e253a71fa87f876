import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AppConfig } from '../../config';
import { JsonHttpClient } from '../../upstreams/json-http';
import { PROOF_STATUSES, type ProofStatus } from './linkproof.models';

export interface ProofLinkRequest {
  userId: string;
  /** A canonical Solana address. */
  wallet: string;
}

/** The proof/identity provider: proves that a person controls a wallet. */
export interface IdentityProvider {
  /** A deep link that starts the proof for a wallet in the provider's app. */
  createProofLink(r: ProofLinkRequest): Promise<{ url: string; expiresAt: Date }>;
  /** Where the wallet's proof stands. */
  proofStatus(wallet: string): Promise<{ status: ProofStatus; verifiedAt: Date | null }>;
}

/**
 * The provider over HTTP (bearer API key): `POST /v1/proof-links` with
 * `{ subject, wallet, chain: "solana" }` → `{ url, expires_at }`, and
 * `GET /v1/proofs/{wallet}` → `{ status, verified_at? }`. Failures are 502s
 * (callers that declare 503 for the provider map them).
 */
export class HttpIdentityProvider implements IdentityProvider {
  constructor(private readonly http: JsonHttpClient) {}

  async createProofLink(r: ProofLinkRequest) {
    const a = await this.http.request(
      { method: 'POST', path: '/v1/proof-links', body: { subject: r.userId, wallet: r.wallet, chain: 'solana' } },
      z.object({ url: z.url().max(2000), expires_at: z.iso.datetime({ offset: true }) }),
    );
    return { url: a.url, expiresAt: new Date(a.expires_at) };
  }

  async proofStatus(wallet: string) {
    const a = await this.http.request(
      { method: 'GET', path: `/v1/proofs/${encodeURIComponent(wallet)}` },
      z.object({ status: z.enum(PROOF_STATUSES), verified_at: z.iso.datetime({ offset: true }).nullish() }),
    );
    return { status: a.status, verifiedAt: a.verified_at ? new Date(a.verified_at) : null };
  }
}

/** How long a simulated proof link is valid. */
const SIMULATED_LINK_TTL_MS = 10 * 60_000;

/**
 * The simulated provider: links on a reserved domain, derived from the user,
 * the wallet and the clock (a fresh link per request); nobody completes a
 * proof in the simulation, so every wallet is `unverified`.
 */
export class SimulatedIdentityProvider implements IdentityProvider {
  constructor(private readonly now: () => number = Date.now) {}

  async createProofLink(r: ProofLinkRequest) {
    const at = this.now();
    const session = createHash('sha256').update(`proof|${r.userId}|${r.wallet}|${at}`).digest('hex').slice(0, 24);
    const url = `https://identity.invalid/proof?chain=solana&wallet=${encodeURIComponent(r.wallet)}&session=${session}`;
    return { url, expiresAt: new Date(at + SIMULATED_LINK_TTL_MS) };
  }

  async proofStatus() {
    return { status: 'unverified' as const, verifiedAt: null };
  }
}

export function createIdentityProvider(config: AppConfig, now?: () => number): IdentityProvider {
  const u = config.upstreams.identity;
  if (!u.url) return new SimulatedIdentityProvider(now);
  return new HttpIdentityProvider(
    new JsonHttpClient('identity provider', { ...u, url: u.url }, config.upstreams.timeoutMs),
  );
}
