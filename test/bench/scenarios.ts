/**
 * What the benchmark measures. Add a scenario by appending to {@link SCENARIOS};
 * the harness probes each one once (status and body) before loading it.
 */

/** The GraphQL events page (same data as `GET /api/events?page=1&pageSize=20`). */
export const EVENTS_PAGE_QUERY =
  'query Bench { events(page: 1, pageSize: 20) { data { id slug title category sourceType markets { venue marketId title status yesPrice } } page pageSize total } }';

/** Returns a problem description for a bad probe body, or `undefined` when it is fine. */
export type BodyCheck = (json: unknown) => string | undefined;

/** One HTTP request shape to load-test. */
export interface Scenario {
  /** Unique, human-readable; shown in the table and used by `BENCH_ONLY`. */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and query string, relative to the server's base URL. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Every response must have this status; anything else counts as a failure. */
  expectStatus: number;
  /** Extra check of the probe's parsed JSON body (after the generic "no errors" check). */
  check?: BodyCheck;
}

/** Reads `json.a.b.c` without trusting the shape. */
export function pick(json: unknown, ...keys: string[]): unknown {
  let value = json;
  for (const key of keys) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A check that `keys` leads to a non-empty array (an empty page would make the numbers meaningless). */
export function nonEmptyList(...keys: string[]): BodyCheck {
  return (json) => {
    const list = pick(json, ...keys);
    if (!Array.isArray(list)) return `expected an array at ${keys.join('.')}`;
    if (list.length === 0) return `${keys.join('.')} is empty: is the database seeded?`;
    return undefined;
  };
}

const JSON_POST = { 'content-type': 'application/json' };

/** The bare-node baseline: a fixed JSON body of about one events page (see `baseline-server.ts`). */
export const BASELINE: Scenario = {
  name: 'baseline: bare node http',
  method: 'GET',
  path: '/',
  expectStatus: 200,
  check: nonEmptyList('data', 'events', 'data'),
};

/** Application scenarios, measured in this order. */
export const SCENARIOS: Scenario[] = [
  {
    name: 'REST GET /api/events',
    method: 'GET',
    path: '/api/events?page=1&pageSize=20',
    expectStatus: 200,
    check: nonEmptyList('data'),
  },
  {
    name: 'GraphQL events page',
    method: 'POST',
    path: '/graphql',
    headers: JSON_POST,
    body: JSON.stringify({ query: EVENTS_PAGE_QUERY }),
    expectStatus: 200,
    check: nonEmptyList('data', 'events', 'data'),
  },
];
