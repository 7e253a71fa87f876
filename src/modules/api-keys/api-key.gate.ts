import { AppError } from '../../errors/app-error';
import type { RateLimiter, RateLimitResult } from '../../infra';
import type { UsageRecorder } from '../usage/usage.recorder';
import { ANONYMOUS_LIMIT, PLAN_LIMITS, RATE_WINDOW_LABEL, RATE_WINDOW_MS, type ApiPlan } from './api-keys.limits';
import type { ApiKeyPrincipal } from './api-keys.models';
import type { ApiKeysService } from './api-keys.service';

/** The cost unit when none is configured (config.ts's default). */
const DEFAULT_COST_UNIT = 100;

/** One request at the gate. */
export interface GateRequest {
  /** The key the request presents, if any (see {@link credentialFrom}). */
  credential: string | undefined;
  /** The client address: who a request without a valid key is limited as. */
  clientId: string;
  /** Path template the request is counted under (`/api/markets/{venue}/{market_id}`, `/graphql`). */
  endpoint: string;
  /** False for quota-reporting endpoints: the limiter is peeked, not hit. */
  consume: boolean;
  /** A GraphQL operation's computed cost: it is charged {@link quotaUnits} of it; absent: one request. */
  cost?: number;
}

/** What the gate decided: the principal (or an error to answer) and the headers every answer carries. */
export interface Admission {
  principal: ApiKeyPrincipal | null;
  headers: Record<string, string>;
  error?: AppError;
}

export interface GateOptions {
  /** False disables per-key and per-address limits (and their headers); keys, scopes and usage still apply. */
  rateLimit: boolean;
  /** The computed GraphQL cost one unit of quota buys (`API_KEY_GRAPHQL_COST_UNIT`). */
  costUnit?: number;
  now?: () => number;
}

/**
 * The quota a request spends: one per request, and for a GraphQL operation of
 * computed cost `cost`, ceil(cost / costUnit) (at least one, at most the whole
 * window's limit, so an operation within the cost limit can always run once the
 * window is empty).
 */
export function quotaUnits(cost: number | undefined, costUnit: number, limit: number): number {
  if (cost === undefined || !Number.isFinite(cost)) return 1;
  return Math.min(limit, Math.max(1, Math.ceil(cost / costUnit)));
}

/**
 * The single access rule of the market-data surface, shared by its REST
 * router and by GraphQL resolvers: authenticate the key, count the request
 * against its plan (or against the client address when there is no valid
 * key), count usage, and produce the rate-limit headers.
 */
export class ApiKeyGate {
  private readonly now: () => number;

  constructor(
    private readonly keys: ApiKeysService,
    private readonly limiter: RateLimiter,
    private readonly usage: UsageRecorder,
    private readonly opts: GateOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  async admit(req: GateRequest): Promise<Admission> {
    const principal = req.credential === undefined ? null : await this.keys.authenticate(req.credential);
    let headers: Record<string, string> = {};
    if (this.opts.rateLimit) {
      const policy = principal
        ? { key: `apikey:${principal.keyId}`, name: principal.plan, limit: PLAN_LIMITS[principal.plan] }
        : { key: `apikey-client:${req.clientId}`, name: 'anonymous', limit: ANONYMOUS_LIMIT };
      const units = quotaUnits(req.cost, this.opts.costUnit ?? DEFAULT_COST_UNIT, policy.limit);
      const result = req.consume
        ? await this.limiter.hit(policy.key, policy.limit, RATE_WINDOW_MS, units)
        : await this.limiter.peek(policy.key, policy.limit, RATE_WINDOW_MS);
      headers = rateLimitHeaders(policy.name, result, this.now());
      if (req.consume && !result.allowed) {
        return {
          principal: null,
          headers,
          error: AppError.rateLimited(Math.max(1, Math.ceil(result.retryAfterMs / 1000))),
        };
      }
    }
    if (!principal) {
      const message = req.credential === undefined ? 'an API key is required' : 'invalid or revoked API key';
      return { principal: null, headers, error: AppError.unauthorized(message) };
    }
    this.usage.record(principal.owner, principal.keyId, req.endpoint);
    return { principal, headers };
  }

  /** The key's quota right now, without spending any. */
  async status(principal: ApiKeyPrincipal): Promise<RateLimitStatusView> {
    const limit = PLAN_LIMITS[principal.plan];
    const r = this.opts.rateLimit
      ? await this.limiter.peek(`apikey:${principal.keyId}`, limit, RATE_WINDOW_MS)
      : { remaining: limit, resetAt: this.now() + RATE_WINDOW_MS };
    return {
      plan: principal.plan,
      limit,
      remaining: r.remaining,
      reset: Math.ceil(r.resetAt / 1000),
      window: RATE_WINDOW_LABEL,
    };
  }
}

/** A key's quota as `GET /api/users/me/rate-limit` reports it. */
export interface RateLimitStatusView {
  plan: ApiPlan;
  limit: number;
  remaining: number;
  /** Unix time (seconds) when the oldest counted request leaves the window. */
  reset: number;
  window: string;
}

/**
 * `X-RateLimit-*` (limit, remaining, reset as a Unix time in seconds) and the
 * IETF `RateLimit-Policy` / `RateLimit` fields (quota and window; remaining
 * and seconds until reset).
 */
export function rateLimitHeaders(policy: string, r: RateLimitResult, now: number): Record<string, string> {
  const resetIn = Math.max(0, Math.ceil((r.resetAt - now) / 1000));
  return {
    'x-ratelimit-limit': String(r.limit),
    'x-ratelimit-remaining': String(r.remaining),
    'x-ratelimit-reset': String(Math.ceil(r.resetAt / 1000)),
    'ratelimit-policy': `"${policy}";q=${r.limit};w=${RATE_WINDOW_MS / 1000}`,
    ratelimit: `"${policy}";r=${r.remaining};t=${resetIn}`,
  };
}

/**
 * The key a request presents. `Authorization: Bearer` wins over `X-API-Key`.
 * With `bearerOnlyIfKey` (GraphQL, where the bearer usually carries a user
 * token) a bearer value counts only when it looks like an API key.
 */
export function credentialFrom(
  header: (name: string) => string | undefined,
  opts: { bearerOnlyIfKey?: boolean; keyPrefix?: string } = {},
): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header('authorization') ?? '')?.[1];
  if (bearer !== undefined && (!opts.bearerOnlyIfKey || bearer.startsWith(opts.keyPrefix ?? 'mk_'))) return bearer;
  const apiKey = header('x-api-key')?.trim();
  return apiKey ? apiKey : undefined;
}
