import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running bare-node server. */
export interface BaselineServer {
  baseUrl: string;
  close(): Promise<void>;
}

/** A fixed body shaped and sized like one GraphQL events page of 20 items. */
export function baselineBody(): Buffer {
  const venues = ['venue-a', 'venue-b'];
  const data = Array.from({ length: 20 }, (_, i) => ({
    id: `evt_${String(i).padStart(4, '0')}_baseline`,
    slug: `will-something-notable-happen-by-q${(i % 4) + 1}-${2026 + (i % 3)}`,
    title: `Will something notable happen by the end of quarter ${(i % 4) + 1}? (#${i})`,
    category: ['politics', 'sports', 'crypto', 'economy'][i % 4],
    sourceType: 'aggregated',
    markets: venues.map((venue, v) => ({
      venue,
      marketId: `${venue}-mkt-${1000 + i * 2 + v}`,
      title: `Market ${i}.${v}: will it resolve YES?`,
      status: 'open',
      yesPrice: Math.round(((i * 37 + v * 11) % 100) * 100) / 10000,
    })),
  }));
  return Buffer.from(JSON.stringify({ data: { events: { data, page: 1, pageSize: 20, total: 20 } } }));
}

/**
 * The machine's baseline: a plain `http` server answering every request with a
 * precomputed JSON body. No framework, no parsing, no database. It serves
 * `body` (the run passes the REST events page the application answered, so
 * bare Node writes the same bytes), or the synthetic page when none is given.
 */
export async function startBaselineServer(body: Buffer = baselineBody()): Promise<BaselineServer> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
