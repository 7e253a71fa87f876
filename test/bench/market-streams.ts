/**
 * Held `GET /stream/markets/{venue}/{marketId}` connections, beside a bare-Node fan-out of the
 * same venue messages (a part of `npm run bench:streams`):
 *
 * - a local websocket server plays venue_a (test/support/fake-venue-streams.ts over the HTTP fake's
 *   catalog and books); the server process runs against both (`VENUE_SOURCE=live`, streams on);
 * - `clients` SSE clients hold one market's stream; the bench changes a level of its book on the
 *   venue's websocket `rate` times a second; for every delta each client reads, the time from the
 *   server receiving the venue message (the update's `receivedAt`) to the client reading it,
 *   p50/p99 over every (client, update) pair;
 * - the baseline (market-fanout-baseline.ts): one bare Node process subscribed to the same
 *   websocket writes each frame it receives, stamped on receipt, to as many held SSE clients;
 *   measured the same way, after the server's window, with the same message rate;
 * - RSS per held market stream: the server's `/health` `memoryRssMb` before and with the clients
 *   held, over the clients (the trades part measures a held `/stream/trades` the same way).
 *
 * Environment: BENCH_STREAM_CLIENTS (2000), BENCH_MARKET_RATE (venue messages a second, 20),
 * BENCH_STREAM_SECONDS (10).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { tokensOf } from '../support/fake-venue-books';
import { startFakeVenues } from '../support/fake-venues';
import { startFakeVenueStreams } from '../support/fake-venue-streams';
import { REPO_ROOT, startAppServer, type AppServer } from './server-process';

/** A venue_a market of the HTTP fake's catalog, with a book. */
const MARKET = '0x1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f801';

export interface MarketStreamsReport {
  clients: number;
  rate: number;
  seconds: number;
  loadAvg1m: number;
  rssIdleMb: number;
  rssHeldMb: number;
  rssPerMarketStreamKiB: number;
  server: Delivery;
  baseline: Delivery;
}

interface Delivery {
  connected: number;
  updates: number;
  deliveries: number;
  /** Snapshots after the first per client (a client that fell behind or a gap): 0 expected. */
  resnapshots: number;
  p50: number;
  p99: number;
  max: number;
}

const RECEIVED_AT = /"receivedAt":"([^"]+)"/;
const SEQ = /"seq":(\d+)/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (m: string) => process.stderr.write(`[bench:streams markets] ${m}\n`);

interface Sink {
  recording: boolean;
  open: number;
  latencies: number[];
  seqs: Set<string>;
  resnapshots: number;
}

function openClient(url: string, agent: http.Agent, sink: Sink): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`GET ${url} answered ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      sink.open += 1;
      res.on('close', () => (sink.open -= 1));
      resolve(req);
      let pending = '';
      let snapshots = 0;
      res.on('data', (chunk: string) => {
        const now = Date.now();
        pending += chunk;
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          if (block.startsWith('event: snapshot') && ++snapshots > 1) sink.resnapshots += 1;
          if (!sink.recording || !block.startsWith('event: delta')) continue;
          const at = RECEIVED_AT.exec(block);
          const seq = SEQ.exec(block);
          if (!at || !seq) continue;
          sink.latencies.push(now - Date.parse(at[1]));
          sink.seqs.add(seq[1]);
        }
      });
      res.on('error', () => undefined);
    });
    req.on('error', reject);
  });
}

async function rssMb(baseUrl: string): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const body = (await (await fetch(`${baseUrl}/health`)).json()) as { memoryRssMb: number };
    readings.push(body.memoryRssMb);
    const last = readings.slice(-3);
    if (last.length === 3 && Math.max(...last) - Math.min(...last) <= 2) break;
    await sleep(500);
  }
  return [...readings.slice(-3)].sort((a, b) => a - b)[Math.min(1, readings.length - 1)];
}

function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Opens `n` clients of `url` (in batches), drives `rate` level changes a second for `seconds`, measures. */
async function measure(
  url: string,
  n: number,
  drive: (i: number) => Promise<void>,
  settings: { rate: number; seconds: number },
  afterOpen?: () => Promise<void>,
): Promise<{ delivery: Delivery; close: () => void }> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const sink: Sink = { recording: false, open: 0, latencies: [], seqs: new Set(), resnapshots: 0 };
  const requests: http.ClientRequest[] = [];
  while (requests.length < n) {
    const batch = Math.min(100, n - requests.length);
    requests.push(...(await Promise.all(Array.from({ length: batch }, () => openClient(url, agent, sink)))));
  }
  await sleep(2_000);
  await afterOpen?.();
  sink.recording = true;
  const total = Math.round(settings.rate * settings.seconds);
  const start = Date.now();
  for (let i = 0; i < total; i += 1) {
    await drive(i);
    const next = start + ((i + 1) * 1000) / settings.rate;
    await sleep(Math.max(0, next - Date.now()));
  }
  await sleep(1_000);
  sink.recording = false;
  const sorted = Float64Array.from(sink.latencies).sort();
  return {
    delivery: {
      connected: sink.open,
      updates: sink.seqs.size,
      deliveries: sorted.length,
      resnapshots: sink.resnapshots,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: percentile(sorted, 100),
    },
    close: () => {
      for (const r of requests) r.destroy();
      agent.destroy();
    },
  };
}

export async function runMarketStreamsBench(
  settings: { clients: number; rate: number; seconds: number; startupTimeoutMs: number },
  env: NodeJS.ProcessEnv,
): Promise<MarketStreamsReport> {
  const fake = await startFakeVenues();
  const streams = await startFakeVenueStreams(fake);
  let server: AppServer | undefined;
  let baselineProc: ReturnType<typeof spawn> | undefined;
  try {
    server = await startAppServer({
      command: env.BENCH_SERVER_CMD || undefined,
      startupTimeoutMs: settings.startupTimeoutMs,
      env,
      extraEnv: {
        ...fake.env,
        ...streams.env,
        VENUE_WS_PING_MS: '10000',
        VENUE_TRADES_POLL_MS: '3600000',
        STREAMS_PER_ADDRESS: String(settings.clients + 10),
        STREAMS_TOTAL: String(settings.clients + 10),
        LOG_LEVEL: 'warn',
      },
    });
    const base = server.baseUrl;
    const level = (await streams.book('venue_a', MARKET)).bids[0].price;
    const drive = (i: number) => streams.setLevelA(MARKET, 'bids', level, 100 + (i % 50));
    const url = `${base}/stream/markets/venue_a/${MARKET}?depth=10`;
    // Warm the path (the follower, the venue subscription), then let the start settle.
    const warm = await measure(url, 1, drive, { rate: 10, seconds: 1 });
    warm.close();
    await sleep(3_000);
    const rssIdleMb = await rssMb(base);
    log(`idle RSS ${rssIdleMb} MB; ${settings.clients} market streams`);
    let rssHeldMb = 0;
    const app = await measure(url, settings.clients, drive, settings, async () => {
      rssHeldMb = await rssMb(base);
    });
    app.close();
    log(`server: p99 ${app.delivery.p99} ms; baseline next`);

    baselineProc = spawn(
      process.execPath,
      [
        '-r',
        './scripts/register.js',
        'test/bench/market-fanout-baseline.ts',
        streams.venueAUrl,
        tokensOf(fake.data, MARKET)[0],
      ],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      baselineProc!.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /listening (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      baselineProc!.once('exit', (code) => reject(new Error(`baseline exited ${code}`)));
    });
    const bare = await measure(`http://127.0.0.1:${port}/`, settings.clients, drive, settings);
    bare.close();
    return {
      clients: settings.clients,
      rate: settings.rate,
      seconds: settings.seconds,
      loadAvg1m: Math.round(os.loadavg()[0] * 100) / 100,
      rssIdleMb,
      rssHeldMb,
      rssPerMarketStreamKiB: Math.round((((rssHeldMb - rssIdleMb) * 1024) / settings.clients) * 10) / 10,
      server: app.delivery,
      baseline: bare.delivery,
    };
  } finally {
    baselineProc?.kill('SIGTERM');
    if (server) await server.stop();
    await streams.close();
    await fake.close();
  }
}

export function formatMarketStreamsReport(r: MarketStreamsReport): string {
  const line = (name: string, d: Delivery) =>
    `  ${name}: receipt to client p50 ${d.p50} ms, p99 ${d.p99} ms, max ${d.max} ms ` +
    `(${d.deliveries} deliveries of ${d.updates} updates, ${d.connected} connected, ${d.resnapshots} re-snapshots)`;
  return [
    `SSE /stream/markets/venue_a/…, ${r.clients} clients of one market, ${r.rate} venue messages/s for ` +
      `${r.seconds} s, load ${r.loadAvg1m}`,
    `  RSS per held market stream: ${r.rssPerMarketStreamKiB} KiB (${r.rssIdleMb} MB idle, ${r.rssHeldMb} MB held)`,
    line('server', r.server),
    line('bare Node fan-out', r.baseline),
  ].join('\n');
}
