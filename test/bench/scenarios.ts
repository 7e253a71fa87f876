/**
 * What the benchmark measures. Add a scenario by appending to {@link SCENARIOS};
 * the harness probes each one once (status and body) before loading it.
 */
import { catalogIds } from './catalog-ids';
import { MARKET_DATA_SCENARIOS } from './market-data.scenarios';
import { SCREEN_SCENARIOS } from './screens.scenarios';
import { TRADING_SCENARIOS } from './trading.scenarios';

/** The GraphQL events page (same data as `GET /api/events?page=1&pageSize=20`). */
export const EVENTS_PAGE_QUERY =
  'query Bench { events(page: 1, pageSize: 20) { data { id slug title category sourceType markets { venue ' +
  'marketId title status yesPrice } } page pageSize total } }';

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
  /**
   * Looked up once before the probe: values for `{name}` placeholders in `path`
   * and `body` (catalog ids depend on the seed and the calendar month).
   */
  prepare?: (baseUrl: string) => Promise<Record<string, string>>;
  /**
   * A different path for each request (`n` = 0, 1, 2, ... over warm-up and
   * measurement together), e.g. to measure cache misses; the probe uses `path`.
   */
  pathFor?: (path: string, n: number) => string;
  /**
   * Extra environment of a server of its own, started beside the main one
   * (scenarios with equal `serverEnv` share it): settings a scenario compares.
   */
  serverEnv?: Record<string, string>;
  /** Looked up once before the probe: header sets rotated over the requests (e.g. API keys, to spread quotas). */
  headerRotation?: (baseUrl: string) => Promise<Record<string, string>[]>;
  /** What `headerRotation` gave: request n carries `rotateHeaders[n % length]` on top of `headers`. */
  rotateHeaders?: Record<string, string>[];
  /** Another scenario's name: the run also prints this one's throughput relative to it. */
  comparesTo?: string;
}

/** Fills a scenario's `{name}` placeholders through its `prepare` (no-op without one). */
export async function resolveScenario(baseUrl: string, s: Scenario): Promise<Scenario> {
  if (!s.prepare) return s;
  const vars = await s.prepare(baseUrl);
  const fill = (text: string) =>
    text.replace(/\{(\w+)\}/g, (_m, key: string) => {
      const value = vars[key];
      if (value === undefined) throw new Error(`scenario ${s.name}: prepare() gave no value for {${key}}`);
      return encodeURIComponent(value);
    });
  return { ...s, path: fill(s.path), body: s.body === undefined ? undefined : fill(s.body), prepare: undefined };
}

/** History windows: 2 h of 1-minute candles, ending `back` minutes before the bench started. */
const HISTORY_BASE = Math.floor(Date.now() / 60_000) * 60;
function historyWindow(extraMinutes: number, backMinutes: number): { from: number; to: number } {
  const to = HISTORY_BASE - 60 * backMinutes;
  return { from: to - 7_200 - 60 * extraMinutes, to };
}

/** The cache-hit scenario's window: ends 100 minutes back, which no miss window does. */
async function historyHitVars(baseUrl: string): Promise<Record<string, string>> {
  const { from, to } = historyWindow(0, 100);
  return { ...(await catalogIds(baseUrl)), from: String(from), to: String(to) };
}

/**
 * A window no request has asked for yet: 20,000 distinct (from, to) pairs in
 * the last few hours, so every key is new while the data stays comparable to
 * the hit scenario's (2 to 5 hours of 1-minute candles; 1m entries live 30 s).
 */
function freshHistoryWindow(path: string, n: number): string {
  const { from, to } = historyWindow(n % 200, Math.floor(n / 200) % 100);
  return `${path}&from=${from}&to=${to}`;
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

/** The path whose answer the bare-node baseline serves byte for byte (see `run.ts`). */
export const BASELINE_BODY_PATH = '/api/events?page=1&pageSize=20';

/** The bare-node baseline: the REST events page's bytes, or a synthetic page (see `baseline-server.ts`). */
export const BASELINE: Scenario = {
  name: 'baseline: bare node http',
  method: 'GET',
  path: '/',
  expectStatus: 200,
  check: (json) =>
    nonEmptyList('data')(json) === undefined ? undefined : nonEmptyList('data', 'events', 'data')(json),
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
    comparesTo: 'REST GET /api/events',
  },
  {
    name: 'REST event history, cache hit',
    method: 'GET',
    path: '/api/events/{eventId}/history?interval=1m&from={from}&to={to}',
    expectStatus: 200,
    check: nonEmptyList('markets'),
    prepare: historyHitVars,
  },
  {
    name: 'REST event history, cache miss',
    method: 'GET',
    path: '/api/events/{eventId}/history?interval=1m',
    expectStatus: 200,
    check: nonEmptyList('markets'),
    prepare: catalogIds,
    pathFor: freshHistoryWindow,
  },
  {
    name: 'REST market detail screen',
    method: 'GET',
    path: '/api/markets/{venue}/{marketId}/detail?chartPoints=60',
    expectStatus: 200,
    check: nonEmptyList('trades', 'data'),
    prepare: catalogIds,
  },
  ...SCREEN_SCENARIOS,
  ...MARKET_DATA_SCENARIOS,
  ...TRADING_SCENARIOS,
];
