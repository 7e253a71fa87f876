import type { ApiPlan, ApiScope } from '../../../src/modules/api-keys';
import { ApiKeysService } from '../../../src/modules/api-keys/api-keys.service';
import { bearer, http, type TestApp } from '../../support/app';

/** A key created in-process (as the apikey CLI does), with its full value. */
export async function issueKey(
  app: TestApp,
  o: { owner?: string; name?: string; scopes?: ApiScope[]; plan?: ApiPlan } = {},
): Promise<{ id: string; key: string; owner: string }> {
  const owner = o.owner ?? `owner-${Math.random().toString(36).slice(2, 10)}`;
  const created = await app.services.get(ApiKeysService).create({
    owner,
    name: o.name ?? 'test key',
    scopes: o.scopes ?? ['read', 'write'],
    plan: o.plan ?? 'enterprise',
  });
  return { id: created.id, key: created.key, owner };
}

/** A request to the market-data surface, authenticated with `key` as a bearer (unless `headers` say otherwise). */
export function md(app: TestApp, path: string, key?: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  if (key !== undefined && !headers.has('authorization') && !headers.has('x-api-key'))
    headers.set('authorization', bearer(key).authorization);
  return http(`${app.url}/market-data${path}`, { ...init, headers });
}

export const RATE_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'ratelimit-policy',
  'ratelimit',
] as const;

/** Asserts every rate-limit header is present and consistent; returns the numeric trio. */
export function rateHeaders(headers: Headers): { limit: number; remaining: number; reset: number } {
  for (const h of RATE_HEADERS) {
    if (!headers.get(h)) throw new Error(`missing ${h} header`);
  }
  const limit = Number(headers.get('x-ratelimit-limit'));
  const remaining = Number(headers.get('x-ratelimit-remaining'));
  const reset = Number(headers.get('x-ratelimit-reset'));
  if (!headers.get('ratelimit-policy')!.includes(`q=${limit};w=60`))
    throw new Error(`bad RateLimit-Policy ${headers.get('ratelimit-policy')}`);
  if (!headers.get('ratelimit')!.includes(`r=${remaining};t=`))
    throw new Error(`bad RateLimit ${headers.get('ratelimit')}`);
  return { limit, remaining, reset };
}
