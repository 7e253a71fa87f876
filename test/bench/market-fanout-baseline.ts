/**
 * The bare-Node baseline of the market-stream bench: one process that subscribes to a venue_a
 * market on the venue's websocket (the bench's local fake) and, for each frame it receives, writes
 * one SSE message stamped with its receipt time to every held client (`GET /` on its port). No
 * framework, no pub/sub, no book: the floor of receiving a venue message and fanning it out.
 *
 *   node -r ./scripts/register.js test/bench/market-fanout-baseline.ts WS_URL TOKEN
 *
 * Prints `listening <port>` once it holds the venue subscription.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';

const [wsUrl, token] = process.argv.slice(2);
const clients = new Set<http.ServerResponse>();
let seq = 0;

const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  res.write('retry: 3000\n\n');
  clients.add(res);
  res.on('close', () => clients.delete(res));
  req.on('error', () => undefined);
});

const ws = new WebSocket(wsUrl);
ws.on('open', () => {
  ws.send(JSON.stringify({ assets_ids: [token], type: 'market' }));
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
  });
});
ws.on('message', (data) => {
  const receivedAt = new Date().toISOString();
  const text = (data as Buffer).toString('utf8');
  if (!text.includes('price_change')) return;
  seq += 1;
  const body = JSON.stringify({ seq, kind: 'delta', venue: JSON.parse(text) as unknown, receivedAt });
  const frame = Buffer.from(`event: delta\nid: ${seq}\ndata: ${body}\n\n`);
  for (const res of clients) res.write(frame);
});
ws.on('error', (err) => {
  process.stderr.write(`baseline: ${err.message}\n`);
  process.exit(1);
});
process.on('SIGTERM', () => process.exit(0));
