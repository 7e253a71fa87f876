import type { Logger } from './logger';
import type { Metrics } from './metrics';

/** One answered request, as it is counted and logged. */
export interface RequestRecord {
  requestId: string;
  method: string;
  route: string;
  status: number;
  seconds: number;
}

/**
 * Counts a request in the request counter and latency histogram and writes its log line: the
 * one record of every answer, whether Express wrote it or a repeat was written before Express.
 */
export function recordRequest(metrics: Pick<Metrics, 'observeRequest'>, logger: Logger, r: RequestRecord): void {
  metrics.observeRequest(r.method, r.route, r.status, r.seconds);
  logger.info(
    { reqId: r.requestId, method: r.method, route: r.route, status: r.status, ms: Math.round(r.seconds * 1e4) / 10 },
    'request',
  );
}
