import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReadinessReport } from '../kernel';
import { sendError } from './send-error';
import { createHttpServer } from './server-classes';

/**
 * What listens on the service's port before the app is built (the process listens first, then
 * loads the app, opens the database and starts its work) and while start-up waits for something
 * outside the process (another process to migrate the schema): `/health` answers 200 (alive,
 * `status: starting`), `/health/ready` 503 with the reason, anything else 503 `unavailable`
 * (with Retry-After). The app takes the port over with {@link WaitingServer.handOver}: the same
 * listening socket, so the port is never closed between the two.
 */
export interface WaitingServer {
  readonly server: http.Server;
  /** `http://host:port` as bound. */
  readonly url: string;
  /** What `/health/ready` names from now on. */
  setReason(reason: string): void;
  /** Every request from now on (open keep-alive connections too) goes to `handler`. */
  handOver(handler: http.RequestListener): void;
  /** Stops listening (start-up failed or gave up). */
  close(): Promise<void>;
}

export async function startWaitingServer(
  listen: { port: number; host: string },
  reason: string,
  version: string,
  options: http.ServerOptions = {},
): Promise<WaitingServer> {
  const startedAt = new Date();
  let why = reason;
  const waiting: http.RequestListener = (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    res.setHeader('cache-control', 'no-store');
    if (req.method === 'GET' && path === '/health') return json(res, 200, { status: 'starting', version, startedAt });
    if (req.method === 'GET' && path === '/health/ready') {
      const report: Pick<ReadinessReport, 'status' | 'reasons'> = { status: 'not_ready', reasons: [why] };
      return json(res, 503, report);
    }
    sendError(res, 'unavailable', `starting: ${why}`);
  };
  // Its requests are made from classes the app adopts when it takes over (server-classes.ts).
  const server = createHttpServer(options, waiting);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    server,
    url: `http://${host}:${addr.port}`,
    setReason: (next) => {
      why = next;
    },
    handOver: (handler) => {
      server.off('request', waiting);
      server.on('request', handler);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
