/**
 * The market-data limiter benchmark: `GET /market-data/api/markets?limit=50`
 * on two servers that differ only in `API_KEY_RATE_LIMIT` (on / off), both on
 * the same infra. With BENCH_REDIS_URL (or REDIS_URL) set, both servers use
 * that Redis under a key prefix of their own, so the "on" server's limiter is
 * the Redis one; otherwise it is the in-process one.
 *
 * A key allows 6,000 requests a minute (enterprise), far below what a load
 * test sends, so each server gets enough enterprise keys for the whole run and
 * requests rotate over them: every request is authenticated and (limiter on)
 * counted against a real plan limit, as many clients would be. Both scenarios
 * rotate the same way, so the client's work is the same.
 */
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config';
import { bearer } from '../support/http';
import { PLAN_LIMITS } from '../../src/modules/api-keys/api-keys.limits';
// Types only: scenarios.ts imports this file, so values from it are not ready yet here.
import type { BodyCheck, Scenario } from './scenarios';

const REDIS = process.env.BENCH_REDIS_URL || process.env.REDIS_URL || undefined;
const PATH = '/market-data/api/markets?limit=50';

/** Generous: enough keys for 20,000 requests a second over a minute or the whole run, if longer. */
function keysNeeded(): number {
  const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
  const run =
    env('BENCH_WARMUP', 3) +
    env('BENCH_DURATION', 10) +
    env('BENCH_COMPARE_ROUNDS', 3) * env('BENCH_COMPARE_SECONDS', 5) +
    5;
  const seconds = Math.min(60, run);
  const perKeyPerMinute = PLAN_LIMITS.enterprise;
  return Math.max(1, Math.ceil((seconds * 20_000) / perKeyPerMinute));
}

/**
 * Creates the keys through the admin GraphQL mutation, aliased fields in batches under the alias
 * limit, each key for an owner of its own (an owner holds at most API_KEYS_PER_OWNER active keys).
 */
async function enterpriseKeys(baseUrl: string): Promise<Record<string, string>[]> {
  const n = keysNeeded();
  const keys: Record<string, string>[] = [];
  for (let from = 0; from < n; from += KEYS_PER_REQUEST) {
    const fields = Array.from(
      { length: Math.min(KEYS_PER_REQUEST, n - from) },
      (_, j) =>
        `k${from + j}: issueApiKey(owner: "bench-${RUN}-${from + j}", name: "bench", scopes: [read], ` +
        'plan: enterprise) { key }',
    );
    const res = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': loadConfig(process.env).tokens.admin },
      body: JSON.stringify({ query: `mutation { ${fields.join(' ')} }` }),
    });
    const body = (await res.json()) as { data?: Record<string, { key: string }>; errors?: { message: string }[] };
    if (!body.data || body.errors) {
      throw new Error(`could not create bench API keys: ${body.errors?.[0]?.message ?? res.status}`);
    }
    keys.push(...Object.values(body.data).map(({ key }) => bearer(key)));
  }
  return keys;
}

/** Aliased mutations per request: under GRAPHQL_MAX_ALIASES (30 by default). */
const KEYS_PER_REQUEST = 25;

const RUN = randomUUID().slice(0, 8);
/** Both servers on the same Redis, each under a prefix of its own. */
const infra = (name: string): Record<string, string> =>
  REDIS ? { REDIS_URL: REDIS, REDIS_KEY_PREFIX: `bench-${RUN}-${name}:` } : {};

/** A non-empty page of markets. */
const pageOfMarkets: BodyCheck = (json) => {
  const data = (json as { data?: unknown }).data;
  return Array.isArray(data) && data.length > 0
    ? undefined
    : 'expected a non-empty data array: is the database seeded?';
};

const base = {
  method: 'GET',
  path: PATH,
  expectStatus: 200,
  check: pageOfMarkets,
  headerRotation: enterpriseKeys,
} as const;

export const LIMITER_OFF = 'market-data GET /api/markets?limit=50, limiter off';

/** With and without the per-key limiter, measured in one run. */
export const MARKET_DATA_SCENARIOS: Scenario[] = [
  { ...base, name: LIMITER_OFF, serverEnv: { ...infra('off'), API_KEY_RATE_LIMIT: 'off' } },
  {
    ...base,
    name: `market-data GET /api/markets?limit=50, limiter on (${REDIS ? 'Redis' : 'in-process'})`,
    serverEnv: { ...infra('on'), API_KEY_RATE_LIMIT: 'on' },
    comparesTo: LIMITER_OFF,
  },
];
