import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of one app instance (own registry: tests run several apps in one process). */
export interface Metrics {
  registry: Registry;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  observePubSubLag(topic: string, ms: number): void;
  streamOpened(kind: string): void;
  streamClosed(kind: string): void;
  /** A stream request refused with 429: over the per-address or total cap, or no reservation left. */
  streamRefused(reason: 'address' | 'total' | 'reservation' | 'operations'): void;
  /** A client dropped for falling behind (its unsent bytes passed the bound). */
  streamDropped(kind: string): void;
  openStreams(): number;
  /** A dependency (database, redis) became unreachable or reachable again. */
  dependencyAvailable(dependency: string, available: boolean): void;
  /** A failure during a dependency's outage that was counted instead of logged. */
  dependencyErrorAbsorbed(dependency: string): void;
}

export function createMetrics(opts: { queryCount: () => number }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route template.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  let reported = 0;
  new Counter({
    name: 'db_queries_total',
    help: 'SQL statements executed through the ORM.',
    registers: [registry],
    collect() {
      const now = opts.queryCount();
      this.inc(Math.max(0, now - reported));
      reported = now;
    },
  });
  const streams = new Gauge({
    name: 'sse_open_streams',
    help: 'Open server-sent-event streams (REST SSE and graphql-sse).',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const refused = new Counter({
    name: 'sse_streams_refused_total',
    help: 'Stream requests refused with 429, by reason (address, total, reservation).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const dropped = new Counter({
    name: 'sse_clients_dropped_total',
    help: 'Stream clients dropped because their unsent bytes passed STREAM_MAX_BUFFER_BYTES.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const lag = new Histogram({
    name: 'pubsub_delivery_lag_seconds',
    help: 'Time from publish to delivery on this process, by topic.',
    labelNames: ['topic'] as const,
    buckets: [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  const available = new Gauge({
    name: 'dependency_available',
    help: 'Whether a dependency (database, redis) is reachable as this process last saw it (1) or not (0).',
    labelNames: ['dependency'] as const,
    registers: [registry],
  });
  const absorbed = new Counter({
    name: 'dependency_errors_absorbed_total',
    help: "Failures during a dependency's outage counted instead of logged (the outage is logged once).",
    labelNames: ['dependency'] as const,
    registers: [registry],
  });
  let open = 0;
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
    observePubSubLag(topic, ms) {
      lag.observe({ topic }, ms / 1000);
    },
    streamOpened(kind) {
      open += 1;
      streams.inc({ kind });
    },
    streamClosed(kind) {
      open -= 1;
      streams.dec({ kind });
    },
    streamRefused(reason) {
      refused.inc({ reason });
    },
    streamDropped(kind) {
      dropped.inc({ kind });
    },
    openStreams: () => open,
    dependencyAvailable(dependency, up) {
      available.set({ dependency }, up ? 1 : 0);
    },
    dependencyErrorAbsorbed(dependency) {
      absorbed.inc({ dependency });
    },
  };
}
