/**
 * Rules of the market-data surface's API keys (the interface document's
 * Authentication and Limits sections). GraphQL validation, the REST parameter
 * schemas and the access gate all read these.
 */
export const API_SCOPES = ['read', 'write'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const API_PLANS = ['free', 'pro', 'enterprise'] as const;
export type ApiPlan = (typeof API_PLANS)[number];

/** Requests per rolling minute, per key. */
export const PLAN_LIMITS: Readonly<Record<ApiPlan, number>> = { free: 60, pro: 600, enterprise: 6000 };

/** The rolling window of every plan, and how the status endpoint writes it. */
export const RATE_WINDOW_MS = 60_000;
export const RATE_WINDOW_LABEL = '1m';

/** Requests without a valid key are limited per client address, at the free plan's rate. */
export const ANONYMOUS_LIMIT = PLAN_LIMITS.free;

export const API_KEY_PREFIX = 'mk_live_';

export const API_KEY_LIMITS = {
  name: { min: 1, max: 100 },
  owner: { min: 1, max: 200 },
  keyId: { max: 64 },
} as const;

/** The scope each method needs: reads need `read`; key management (POST, DELETE) needs `write`. */
export function scopeForMethod(method: string): ApiScope {
  return method.toUpperCase() === 'GET' || method.toUpperCase() === 'HEAD' ? 'read' : 'write';
}

/** Endpoints that report quota and must not spend it (counted in usage, peeked at the limiter). */
export const QUOTA_FREE_ENDPOINTS: ReadonlySet<string> = new Set(['GET /api/users/me/rate-limit']);

/** Announces a revocation to every process so cached lookups of that key are dropped at once. */
export const API_KEY_REVOKED_TOPIC = 'apikeys.revoked';

/** What {@link API_KEY_REVOKED_TOPIC} carries. */
export interface RevokedMessage {
  keyHash: string;
}
