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
import net from 'node:net';
import os from 'node:os';
import { tokensOf } from '../support/fake-venue-books';
import { startFakeVenues } from '../support/fake-venues';
import { startFakeVenueStreams } from '../support/fake-venue-streams';
import { REPO_ROOT, startAppServer, type AppServer } from './server-process';
import { median } from './stats';

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
  /** Median over updates of the first client's latency: the time before the fan-out starts. */
  firstP50: number;
  p50: number;
  p99: number;
  max: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (m: string) => process.stderr.write(`[bench:streams markets] ${m}\n`);

interface Sink {
  recording: boolean;
  open: number;
  /** Latency of each (client, update) read while recording, in order. */
  latencies: Float64Array;
  count: number;
  /** Per update (`seq`), the latency of the first client to read it. */
  firsts: Map<number, number>;
  /** When the server received each update (`receivedAt`, parsed once per update). */
  receivedAt: Map<number, number>;
  resnapshots: number;
}

const DELTA = Buffer.from('event: delta');
const SNAPSHOT = Buffer.from('event: snapshot');
const SEQ_AT = Buffer.from('"seq":');
const RECEIVED_AT_AT = Buffer.from('"receivedAt":"');

/** The integer written at `from` in `chunk` (ASCII digits). */
function digitsAt(chunk: Buffer, from: number): number {
  let n = 0;
  for (let i = from; i < chunk.length && chunk[i] >= 48 && chunk[i] <= 57; i += 1) n = n * 10 + chunk[i] - 48;
  return n;
}

/**
 * One read of a client while recording: each delta in it, matched on the bytes (no decoding, no
 * strings but one per update). With 2,000 clients in this one process the client's own reading is
 * part of what is measured, for the server and the baseline alike: kept to a scan, and nothing
 * kept per read but a number, so the bench's own garbage collection does not stall its reading.
 */
function record(sink: Sink, chunk: Buffer, at: number): void {
  let from = 0;
  for (;;) {
    const snapshot = chunk.indexOf(SNAPSHOT, from);
    const delta = chunk.indexOf(DELTA, from);
    if (snapshot >= 0 && (delta < 0 || snapshot < delta)) {
      sink.resnapshots += 1;
      from = snapshot + SNAPSHOT.length;
      continue;
    }
    if (delta < 0) return;
    const seqAt = chunk.indexOf(SEQ_AT, delta);
    const receivedAt = chunk.indexOf(RECEIVED_AT_AT, delta);
    if (seqAt < 0 || receivedAt < 0) return;
    const seq = digitsAt(chunk, seqAt + SEQ_AT.length);
    let sent = sink.receivedAt.get(seq);
    if (sent === undefined) {
      const start = receivedAt + RECEIVED_AT_AT.length;
      sent = Date.parse(chunk.toString('latin1', start, chunk.indexOf(34, start)));
      sink.receivedAt.set(seq, sent);
    }
    const latency = at - sent;
    if (sink.count < sink.latencies.length) sink.latencies[sink.count++] = latency;
    const first = sink.firsts.get(seq);
    if (first === undefined || latency < first) sink.firsts.set(seq, latency);
    from = Math.max(seqAt, receivedAt) + 1;
  }
}

/** A held SSE client on a bare socket (no HTTP client machinery in the measured path). */
function openClient(url: string, sink: Sink): Promise<net.Socket> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let head = '';
    let opened = false;
    socket.setNoDelay(true);
    socket.once('connect', () => {
      socket.write(
        `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      if (sink.recording) {
        record(sink, chunk, Date.now());
        return;
      }
      if (opened) return; // the first snapshot and heartbeats, before the window
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      opened = true;
      if (!head.startsWith('HTTP/1.1 200')) {
        socket.destroy();
        reject(new Error(`GET ${url} answered ${head.slice(0, 12)}`));
        return;
      }
      sink.open += 1;
      resolve(socket);
    });
    socket.on('close', () => {
      if (opened) sink.open -= 1;
    });
    socket.on('error', reject);
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
  return median(readings.slice(-3));
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
  const expected = Math.ceil(n * settings.rate * (settings.seconds + 2));
  const sink: Sink = {
    recording: false,
    open: 0,
    latencies: new Float64Array(expected),
    count: 0,
    firsts: new Map(),
    receivedAt: new Map(),
    resnapshots: 0,
  };
  const sockets: net.Socket[] = [];
  while (sockets.length < n) {
    const batch = Math.min(100, n - sockets.length);
    sockets.push(...(await Promise.all(Array.from({ length: batch }, () => openClient(url, sink)))));
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
  const connected = sink.open;
  const { firsts } = sink;
  const sorted = sink.latencies.slice(0, sink.count).sort();
  return {
    delivery: {
      connected,
      updates: firsts.size,
      deliveries: sorted.length,
      resnapshots: sink.resnapshots,
      firstP50: percentile(Float64Array.from(firsts.values()).sort(), 50),
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: percentile(sorted, 100),
    },
    close: () => {
      for (const s of sockets) s.destroy();
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
    `  ${name}: receipt to first client p50 ${d.firstP50} ms; ` +
    `to client p50 ${d.p50} ms, p99 ${d.p99} ms, max ${d.max} ms ` +
    `(${d.deliveries} deliveries of ${d.updates} updates, ${d.connected} connected, ${d.resnapshots} re-snapshots)`;
  return [
    `SSE /stream/markets/venue_a/…, ${r.clients} clients of one market, ${r.rate} venue messages/s for ` +
      `${r.seconds} s, load ${r.loadAvg1m}`,
    `  RSS per held market stream: ${r.rssPerMarketStreamKiB} KiB (${r.rssIdleMb} MB idle, ${r.rssHeldMb} MB held)`,
    line('server', r.server),
    line('bare Node fan-out', r.baseline),
  ].join('\n');
}
