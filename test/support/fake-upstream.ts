import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake upstream received. */
export interface UpstreamRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface UpstreamReply {
  status?: number;
  body?: unknown;
}

export interface FakeUpstream {
  url: string;
  requests: UpstreamRequest[];
  /** Replaces the handler (tests switch behaviour between cases). */
  handle(handler: (req: UpstreamRequest) => UpstreamReply | Promise<UpstreamReply>): void;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1, port 0, standing in for a third-party API:
 * it records every request and answers with the current handler's reply.
 */
export async function startFakeUpstream(
  handler: (req: UpstreamRequest) => UpstreamReply | Promise<UpstreamReply>,
): Promise<FakeUpstream> {
  let current = handler;
  const requests: UpstreamRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const r: UpstreamRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body };
      requests.push(r);
      Promise.resolve(current(r))
        .then((reply) => {
          const out = JSON.stringify(reply.body ?? {});
          res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
          res.end(out);
        })
        .catch(() => {
          res.writeHead(500);
          res.end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(h) {
      current = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
