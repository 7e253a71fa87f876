import http from 'node:http';
import type { ReadinessReport } from '../kernel';
import { sendError } from './send-error';

/**
 * What listens on the service's port while start-up waits for something outside the
 * process (another process to migrate the schema): `/health` answers 200 (alive,
 * `status: starting`), `/health/ready` 503 with the reason, anything else 503
 * `unavailable`. Resolves to the function that closes it, before the app listens.
 */
export async function startWaitingServer(
  listen: { port: number; host: string },
  reason: string,
  version: string,
): Promise<() => Promise<void>> {
  const startedAt = new Date();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    res.setHeader('cache-control', 'no-store');
    if (req.method === 'GET' && path === '/health') return json(res, 200, { status: 'starting', version, startedAt });
    if (req.method === 'GET' && path === '/health/ready') {
      const report: Pick<ReadinessReport, 'status' | 'reasons'> = { status: 'not_ready', reasons: [reason] };
      return json(res, 503, report);
    }
    sendError(res, 'unavailable', `starting: ${reason}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
