import type http from 'node:http';
import type { AppConfig } from '../config';

/**
 * The HTTP server options for these settings. requestTimeout bounds receiving a request (headers
 * and body), not the answer: an open stream is unaffected. The timeouts are checked every
 * connectionsCheckingInterval.
 */
export function httpServerOptions(config: Pick<AppConfig, 'http'>): http.ServerOptions {
  const { headersTimeoutMs, requestTimeoutMs } = config.http;
  return {
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    connectionsCheckingInterval: Math.min(30_000, Math.ceil(headersTimeoutMs / 2)),
  };
}
