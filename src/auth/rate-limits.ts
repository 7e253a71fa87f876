import { AppError } from '../errors/app-error';
import type { RateLimiter } from '../infra';

/** A named per-client policy: `limit` requests per rolling `windowMs`. */
export interface RatePolicy {
  limit: number;
  windowMs: number;
}

/**
 * Per-client limits of the trading surface (discover, onboarding, funding…),
 * shared across processes through the infra rate limiter.
 */
export class ClientRateLimits {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly policies: Record<string, RatePolicy>,
  ) {}

  /** Counts one request; a 429 AppError (with the retry delay) when over the limit. */
  async consume(policy: string, clientId: string): Promise<void> {
    const p = this.policies[policy];
    if (!p) throw new Error(`unknown rate policy ${policy}`);
    const r = await this.limiter.hit(`client:${policy}:${clientId}`, p.limit, p.windowMs);
    if (!r.allowed) throw AppError.rateLimited(Math.max(1, Math.ceil(r.retryAfterMs / 1000)));
  }
}
