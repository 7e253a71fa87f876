import autocannon from 'autocannon';
import type { ScenarioResult } from './report';
import type { Scenario } from './scenarios';

/** How hard and how long to load each scenario. */
export interface LoadSettings {
  durationSec: number;
  connections: number;
  pipelining: number;
  /** A scenario fails when more than this share of its requests failed (0.001 = 0.1 %). */
  maxFailureRate: number;
}

/** Marks a failed response even under the expected status (GraphQL reports errors with 200). */
const ERROR_MARKER = '"errors":';

/**
 * Sends one request and checks it: expected status, a JSON body without
 * `error` / `errors`, then the scenario's own check. Returns the problem, if any.
 */
export async function probe(baseUrl: string, s: Scenario): Promise<string | undefined> {
  let status: number;
  let text: string;
  let stream = false;
  try {
    const res = await fetch(baseUrl + s.path, {
      method: s.method,
      headers: { ...s.headers, ...s.rotateHeaders?.[0] },
      body: s.body,
      signal: AbortSignal.timeout(15_000),
    });
    status = res.status;
    stream = res.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
    text = await res.text();
  } catch (err) {
    return `request failed: ${(err as Error).message}`;
  }
  const snippet = text.length > 400 ? `${text.slice(0, 400)}...` : text;
  if (status !== s.expectStatus) return `expected status ${s.expectStatus}, got ${status}: ${snippet}`;
  let json: unknown;
  try {
    // A server-sent-event stream (read to its end) is checked as the array of its messages.
    json = stream ? sseMessages(text) : JSON.parse(text);
  } catch {
    return `the body is not ${stream ? 'a stream of JSON messages' : 'JSON'}: ${snippet}`;
  }
  if (typeof json === 'object' && json !== null) {
    for (const key of ['errors', 'error']) {
      if (key in json) return `the body has "${key}": ${snippet}`;
    }
  }
  return s.check?.(json);
}

/** The messages of a whole SSE body: `{ event, id, data }` with `data` parsed as JSON. */
export function sseMessages(text: string): { event: string; id: string; data: unknown }[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((block) => {
      const fields: Record<string, string> = {};
      for (const line of block.split(/\r?\n/)) {
        const m = /^(event|id|data): ?(.*)$/.exec(line);
        if (m) fields[m[1]] = fields[m[1]] === undefined ? m[2] : `${fields[m[1]]}\n${m[2]}`;
      }
      return fields;
    })
    .filter((f) => f.data !== undefined)
    .map((f) => ({ event: f.event ?? 'message', id: f.id ?? '', data: JSON.parse(f.data) as unknown }));
}

/** Requests sent per varying scenario, across its warm-up and measurement, so no path repeats. */
const sent = new Map<string, number>();

function nextPath(s: Scenario): string {
  const n = sent.get(s.name) ?? 0;
  sent.set(s.name, n + 1);
  return s.pathFor!(s.path, n);
}

/** Rotated header sets: the next one for each request of a scenario. */
const rotated = new Map<string, number>();

/** The per-request variations a scenario asks for: its next path, its next rotated headers. */
function varyRequest(s: Scenario, req: autocannon.Request): autocannon.Request {
  const out = { ...req };
  if (s.pathFor) out.path = nextPath(s);
  if (s.rotateHeaders && s.rotateHeaders.length > 0) {
    const n = rotated.get(s.name) ?? 0;
    rotated.set(s.name, n + 1);
    out.headers = { ...req.headers, ...s.rotateHeaders[n % s.rotateHeaders.length] };
  }
  return out;
}

/** Nearest-rank percentile of ascending `sorted`, in ms rounded to the microsecond. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const value = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  return Math.round(value * 1000) / 1000;
}

/**
 * Loads one scenario with autocannon and summarises it. Latency percentiles come
 * from every response's own timing (autocannon's histogram rounds to whole ms,
 * too coarse for a sub-millisecond baseline). Stops early when `signal` aborts.
 */
export function measure(
  baseUrl: string,
  s: Scenario,
  settings: LoadSettings,
  signal?: AbortSignal,
): Promise<ScenarioResult> {
  const latencies: number[] = [];
  // autocannon calls verifyBody synchronously right after emitting 'response' for the
  // same request, so this holds that response's status: bodies are only checked under
  // the expected status, and no failed response is counted twice.
  let lastStatus = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl + s.path,
        method: s.method,
        headers: s.headers,
        body: s.body,
        ...((s.pathFor || s.rotateHeaders) && {
          requests: [{ setupRequest: (req: autocannon.Request) => varyRequest(s, req) }],
        }),
        connections: settings.connections,
        pipelining: settings.pipelining,
        duration: settings.durationSec,
        verifyBody: (body) => lastStatus !== s.expectStatus || typeof body !== 'string' || !body.includes(ERROR_MARKER),
      },
      (err, result) => {
        signal?.removeEventListener('abort', onAbort);
        if (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
          return;
        }
        const statusCounts: Record<string, number> = {};
        for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) {
          statusCounts[code] = stat.count ?? 0;
        }
        const responses = Object.values(statusCounts).reduce((a, b) => a + b, 0);
        const expected = statusCounts[String(s.expectStatus)] ?? 0;
        const unexpectedStatus = responses - expected;
        const bodyErrors = result.mismatches;
        const connectionErrors = result.errors;
        const failed = unexpectedStatus + bodyErrors + connectionErrors;
        const attempts = Math.max(1, responses + connectionErrors);

        const problems: string[] = [];
        if (expected === 0) problems.push(`no response had the expected status ${s.expectStatus}`);
        if (unexpectedStatus > 0) {
          const others = Object.entries(statusCounts)
            .filter(([code]) => code !== String(s.expectStatus))
            .map(([code, n]) => `${code}: ${n}`)
            .join(', ');
          problems.push(`${unexpectedStatus} of ${responses} responses had another status (${others})`);
        }
        if (bodyErrors > 0) {
          problems.push(`${bodyErrors} responses with status ${s.expectStatus} carried ${ERROR_MARKER} in the body`);
        }
        if (connectionErrors > 0) {
          problems.push(`${connectionErrors} connection errors (of which ${result.timeouts} timeouts)`);
        }

        latencies.sort((a, b) => a - b);
        resolve({
          name: s.name,
          method: s.method,
          path: s.path,
          rps: result.requests.mean,
          p50: percentile(latencies, 50),
          p90: percentile(latencies, 90),
          p99: percentile(latencies, 99),
          max: percentile(latencies, 100),
          responses,
          expected,
          non2xx: result.non2xx,
          unexpectedStatus,
          bodyErrors,
          connectionErrors,
          statusCounts,
          ok: expected > 0 && failed / attempts <= settings.maxFailureRate,
          problems,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      lastStatus = status;
      latencies.push(responseTime);
    });
    const onAbort = (): void => instance.stop();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
