/**
 * Held `GET /stream/trades` connections (alone: `npm run bench:streams`; the
 * lead's `npm run bench` calls {@link runStreamsBench}):
 *
 * - RSS per held connection: the server's `/health` `memoryRssMb` with no
 *   stream open, then with every client connected and idle for a moment; the
 *   difference over the clients, in KiB;
 * - live trade delivery: the server simulates live trades (SIM_TRADE_RATE);
 *   for every trade each client receives, the time from the trade's own time
 *   (`filledAt`) to the moment the client read it, p50/p99 over every
 *   (client, trade) pair; and per trade the spread from its first to its last
 *   client, p50/p99 over the trades.
 *
 * Server and clients share the machine's clock. The clients read the stream
 * with a cheap scan (the `filledAt` and `id` of each message) so that 2,000 of
 * them in one process add little to what they measure.
 *
 * Environment: BENCH_STREAM_CLIENTS (default 2000), BENCH_STREAM_TRADE_RATE
 * (simulated trades per second, default 5), BENCH_STREAM_SECONDS (measured
 * delivery window, default 10), BENCH_STARTUP_TIMEOUT (s, default 120);
 * BENCH_SERVER_CMD, DATABASE_URL / REDIS_URL as for `npm run bench`. Writes
 * test/bench/results/streams.json.
 */
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatMarketStreamsReport, runMarketStreamsBench } from './market-streams';
import { startAppServer, type AppServer } from './server-process';
import { median, percentile } from './stats';

export interface StreamsSettings {
  clients: number;
  tradeRate: number;
  seconds: number;
  startupTimeoutMs: number;
}

export interface StreamsReport {
  settings: StreamsSettings;
  database: 'embedded' | 'DATABASE_URL';
  loadAvg1m: number;
  /** Clients that were connected at the end of the window. */
  connected: number;
  rssIdleMb: number;
  rssHeldMb: number;
  /** (rssHeld - rssIdle) / clients. */
  rssPerConnectionKiB: number;
  /** RSS with half the clients connected, and the per-connection cost of the second half. */
  rssHalfMb: number;
  rssPerConnectionSecondHalfKiB: number;
  /** Trades seen by at least one client, and (client, trade) deliveries. */
  trades: number;
  deliveries: number;
  /** Trade time to client, ms. */
  latencyP50: number;
  latencyP99: number;
  latencyMax: number;
  /** Per trade, first to last client, ms. */
  spreadP50: number;
  spreadP99: number;
}

function log(message: string): void {
  process.stderr.write(`[bench:streams] ${message}\n`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rssMb(baseUrl: string): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(10_000) });
      const body = (await res.json()) as { memoryRssMb?: number };
      if (typeof body.memoryRssMb !== 'number') throw new Error('GET /health has no memoryRssMb');
      return body.memoryRssMb;
    } catch (err) {
      if (attempt >= 3) throw err;
      await sleep(500);
    }
  }
}

/**
 * RSS once it has settled (a start and a burst of connections leave garbage the collector
 * returns over a few seconds): read every half second until three readings in a row lie
 * within 2 MB (at most 30 s), and take their median.
 */
async function settledRssMb(baseUrl: string): Promise<number> {
  const readings: number[] = [];
  const deadline = Date.now() + 30_000;
  for (;;) {
    readings.push(await rssMb(baseUrl));
    const last = readings.slice(-3);
    if (last.length === 3 && Math.max(...last) - Math.min(...last) <= 2) return median(last);
    if (Date.now() > deadline) return median(last);
    await sleep(500);
  }
}

const FILLED_AT = /"filledAt":"([^"]+)"/;
const ID_LINE = /^id: (.*)$/m;

interface Collector {
  recording: boolean;
  /** Streams open now. */
  open: number;
  latencies: number[];
  /** Trade id to [first, last] receive time. */
  firstLast: Map<string, [number, number]>;
}

/** One held SSE client: resolves once the stream is open (headers and the `retry:` line read). */
function openClient(url: string, agent: http.Agent, sink: Collector): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`GET /stream/trades answered ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      sink.open += 1;
      res.on('close', () => (sink.open -= 1));
      let pending = '';
      let opened = false;
      res.on('data', (chunk: string) => {
        const now = Date.now();
        pending += chunk;
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          if (!opened) {
            opened = true;
            resolve(req);
          }
          if (!sink.recording || !block.startsWith('event: trade')) continue;
          const at = FILLED_AT.exec(block);
          const id = ID_LINE.exec(block);
          if (!at || !id) continue;
          sink.latencies.push(now - Date.parse(at[1]));
          const seen = sink.firstLast.get(id[1]);
          if (seen) seen[1] = now;
          else sink.firstLast.set(id[1], [now, now]);
        }
      });
      res.on('error', () => undefined);
    });
    req.on('error', reject);
  });
}

export async function runStreamsBench(settings: StreamsSettings, env: NodeJS.ProcessEnv): Promise<StreamsReport> {
  let server: AppServer | undefined;
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests: http.ClientRequest[] = [];
  try {
    server = await startAppServer({
      command: env.BENCH_SERVER_CMD || undefined,
      startupTimeoutMs: settings.startupTimeoutMs,
      env,
      extraEnv: {
        SIM_TRADE_RATE: String(settings.tradeRate),
        STREAMS_PER_ADDRESS: String(settings.clients + 10),
        STREAMS_TOTAL: String(settings.clients + 10),
      },
    });
    const base = server.baseUrl;
    // Warm the stream path once (modules, schema, first subscription), then let the start settle.
    const sink: Collector = { recording: false, open: 0, latencies: [], firstLast: new Map() };
    (await openClient(`${base}/stream/trades`, agent, sink)).destroy();
    await sleep(5_000);
    const rssIdleMb = await settledRssMb(base);
    log(`idle RSS ${rssIdleMb} MB; opening ${settings.clients} streams`);
    const half = Math.floor(settings.clients / 2);
    const openUpTo = async (total: number) => {
      const batch = 100;
      while (requests.length < total) {
        const n = Math.min(batch, total - requests.length);
        requests.push(
          ...(await Promise.all(Array.from({ length: n }, () => openClient(`${base}/stream/trades`, agent, sink)))),
        );
      }
      await sleep(2_000);
    };
    await openUpTo(half);
    const rssHalfMb = await settledRssMb(base);
    await openUpTo(settings.clients);
    const rssHeldMb = await settledRssMb(base);
    log(`held RSS ${rssHeldMb} MB; measuring delivery for ${settings.seconds} s at ${settings.tradeRate} trades/s`);
    sink.recording = true;
    await sleep(settings.seconds * 1000);
    sink.recording = false;
    const connected = sink.open;
    const latencies = Float64Array.from(sink.latencies).sort();
    const spreads = Float64Array.from([...sink.firstLast.values()].map(([a, b]) => b - a)).sort();
    return {
      settings,
      database: server.database,
      loadAvg1m: Math.round(os.loadavg()[0] * 100) / 100,
      connected,
      rssIdleMb,
      rssHeldMb,
      rssPerConnectionKiB: Math.round((((rssHeldMb - rssIdleMb) * 1024) / settings.clients) * 10) / 10,
      rssHalfMb,
      rssPerConnectionSecondHalfKiB:
        Math.round((((rssHeldMb - rssHalfMb) * 1024) / (settings.clients - half)) * 10) / 10,
      trades: sink.firstLast.size,
      deliveries: latencies.length,
      latencyP50: percentile(latencies, 50),
      latencyP99: percentile(latencies, 99),
      latencyMax: percentile(latencies, 100),
      spreadP50: percentile(spreads, 50),
      spreadP99: percentile(spreads, 99),
    };
  } finally {
    for (const r of requests) r.destroy();
    agent.destroy();
    if (server) await server.stop();
  }
}

export function formatStreamsReport(r: StreamsReport): string {
  return [
    `SSE /stream/trades, ${r.settings.clients} clients (${r.connected} connected at the end), ` +
      `${r.settings.tradeRate} trades/s, ${r.database}, load ${r.loadAvg1m}`,
    `  RSS per held connection: ${r.rssPerConnectionKiB} KiB (${r.rssIdleMb} MB idle, ${r.rssHeldMb} MB held; ` +
      `${r.rssPerConnectionSecondHalfKiB} KiB each for the second half, from ${r.rssHalfMb} MB)`,
    `  trade time to client: p50 ${r.latencyP50} ms, p99 ${r.latencyP99} ms, max ${r.latencyMax} ms ` +
      `(${r.deliveries} deliveries of ${r.trades} trades)`,
    `  first to last client: p50 ${r.spreadP50} ms, p99 ${r.spreadP99} ms`,
  ].join('\n');
}

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw.trim() === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got "${raw}")`);
  return value;
}

if (require.main === module) {
  const settings: StreamsSettings = {
    clients: Math.round(envNumber('BENCH_STREAM_CLIENTS', 2000)),
    tradeRate: envNumber('BENCH_STREAM_TRADE_RATE', 5),
    seconds: envNumber('BENCH_STREAM_SECONDS', 10),
    startupTimeoutMs: envNumber('BENCH_STARTUP_TIMEOUT', 120) * 1000,
  };
  // BENCH_STREAM_PARTS: `trades`, `markets` (test/bench/market-streams.ts), or both (default).
  const parts = (process.env.BENCH_STREAM_PARTS ?? 'trades,markets').split(',').map((p) => p.trim());
  const run = async () => {
    const trades = parts.includes('trades') ? await runStreamsBench(settings, process.env) : undefined;
    if (trades) process.stdout.write(`${formatStreamsReport(trades)}\n`);
    const markets = parts.includes('markets')
      ? await runMarketStreamsBench({ ...settings, rate: envNumber('BENCH_MARKET_RATE', 20) }, process.env)
      : undefined;
    if (markets) process.stdout.write(`${formatMarketStreamsReport(markets)}\n`);
    return { ...trades, ...(markets && { markets }) };
  };
  run().then(
    (report) => {
      const dir = path.join(__dirname, 'results');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'streams.json'), `${JSON.stringify(report, null, 2)}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : '';
      log(`error: ${err instanceof Error ? err.message : String(err)}${cause}`);
      process.exit(1);
    },
  );
}
