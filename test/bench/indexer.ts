/**
 * The venue_a fill webhook's throughput in fills per second (part of
 * `npm run bench` when DATABASE_URL is set; alone: `npm run bench:indexer`),
 * for 1,000-fill batches posted over HTTP to a server process, beside a raw
 * `INSERT … ON CONFLICT DO NOTHING` of the same trade rows into a copy of the
 * trades table (same indexes) measured in the same run. The baseline's time
 * includes deriving the rows from the fills; the webhook's includes HTTP, the
 * server's JSON parsing, validation and the response (the request body is
 * serialized before the timer starts, as the fills are made before it). Rounds alternate webhook and raw batches so
 * drift hits both.
 *
 * Environment: DATABASE_URL (required: PostgreSQL; a fresh schema is created
 * and dropped), REDIS_URL (optional, passed to the server),
 * BENCH_INDEXER_ROUNDS (default 10), BENCH_INDEXER_BATCH (default 1000).
 * Writes test/bench/results/indexer.json.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { checkFill, fillToTrade, type OrderFilled } from '../../src/modules/webhooks/order-filled';
import { outcomeTokenId } from '../../src/modules/webhooks/outcome-tokens';
import { startAppServer } from './server-process';

const SECRET = 'bench-indexer-secret';

function log(message: string): void {
  process.stderr.write(`[bench:indexer] ${message}\n`);
}

function withSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('schema', schema);
  return u.toString();
}

let serial = 0;
/** One batch of distinct fills (distinct traders and times) over the given markets. */
function makeBatch(markets: readonly string[], size: number): OrderFilled[] {
  return Array.from({ length: size }, () => {
    serial += 1;
    const market = markets[serial % markets.length];
    const buy = serial % 3 !== 0;
    const token = outcomeTokenId(market, serial % 2 ? 'yes' : 'no');
    const usdc = String(100_000 + (serial % 800_000));
    const tokens = String(1_000_000 + (serial % 5_000_000));
    const h = (n: number) => n.toString(16).padStart(64, '0');
    return {
      id: `0x${h(serial)}_0x${h(serial + 1)}`,
      transactionHash: `0x${h(serial)}`,
      timestamp: String(1_760_000_000 + Math.floor(serial / 50)),
      orderHash: `0x${h(serial + 1)}`,
      maker: `0x${(serial % 5000).toString(16).padStart(40, '0')}`,
      taker: `0x${'7'.repeat(40)}`,
      makerAssetId: buy ? '0' : token,
      takerAssetId: buy ? token : '0',
      makerAmountFilled: buy ? usdc : tokens,
      takerAmountFilled: buy ? tokens : usdc,
      fee: '0',
    };
  });
}

/**
 * The raw baseline: the same trade rows in one `INSERT … SELECT FROM unnest(…)
 * ON CONFLICT DO NOTHING` over pg (a fast plain form: ten array parameters,
 * not ten per row; one JSON parameter through `json_to_recordset`, as the
 * webhook sends, measured the same), into a copy of the trades table.
 */
async function rawInsert(
  pg: Client,
  fills: OrderFilled[],
  tokenIndex: Map<string, { venueMarketId: string; outcome: 'yes' | 'no' }>,
): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  const trades = fills.map((f, i) => {
    const c = checkFill(f, i, now);
    return fillToTrade(c, tokenIndex.get(c.tokenId)!);
  });
  const col = <T>(f: (t: (typeof trades)[number]) => T) => trades.map(f);
  const r = await pg.query(
    `INSERT INTO "BenchTrade" ("id", "venue", "venueTradeId", "venueMarketId", "venueTraderId", "side",
      "outcome", "price", "size", "filledAt")
     SELECT r.id, r.venue::"Venue", r.tid, r.mid, r.trader, r.side::"TradeSide", r.outcome::"Outcome",
      r.price::numeric, r.size::numeric, r.at::timestamp(3)
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
      $9::text[], $10::text[])
       AS r(id, venue, tid, mid, trader, side, outcome, price, size, at)
     ON CONFLICT DO NOTHING`,
    [
      col(() => randomUUID()),
      col((t) => t.venue),
      col((t) => t.venueTradeId),
      col((t) => t.venueMarketId),
      col((t) => t.venueTraderId),
      col((t) => t.side),
      col((t) => t.outcome),
      col((t) => t.price.toFixed(6)),
      col((t) => t.size.toFixed(6)),
      col((t) => t.filledAt.toISOString()),
    ],
  );
  return r.rowCount ?? 0;
}

/** What one run of the indexer benchmark measured. */
export interface IndexerReport {
  at: string;
  batch: number;
  rounds: number;
  webhook: { fillsPerSecond: number; msPerBatch: number; written: number };
  rawInsert: { fillsPerSecond: number; msPerBatch: number; written: number };
  /** Webhook fills/s (to the answer, the trades durable) ÷ raw fills/s. */
  ratio: number;
  /** To the end of the announcement (stats, notifications, publication): the sustained rate. */
  announced: { fillsPerSecond: number; msPerBatch: number; ratio: number };
  redelivery: { msPerBatch: number; skipped: number };
  redis: boolean;
}

/** The report as a Markdown table. */
export function formatIndexerTable(report: IndexerReport): string {
  return [
    `| path | fills/s | ms per ${report.batch}-fill batch |`,
    '| --- | --- | --- |',
    `| raw INSERT … ON CONFLICT DO NOTHING (baseline) | ` +
      `${report.rawInsert.fillsPerSecond.toLocaleString('en-US')} | ${report.rawInsert.msPerBatch} |`,
    `| POST /webhooks/chain-indexer/venue_a | ${report.webhook.fillsPerSecond.toLocaleString('en-US')} | ` +
      `${report.webhook.msPerBatch} |`,
    `| webhook vs baseline | ${report.ratio.toFixed(2)}x | |`,
    `| webhook until announced (stats, notifications, publication) | ` +
      `${report.announced.fillsPerSecond.toLocaleString('en-US')} (${report.announced.ratio.toFixed(2)}x) | ` +
      `${report.announced.msPerBatch} |`,
    `| redelivery of a stored batch (all skipped) | | ${report.redelivery.msPerBatch} |`,
  ].join('\n');
}

/** Runs the benchmark against the PostgreSQL at `databaseUrl`; writes results/indexer.json. */
export async function runIndexerBench(
  databaseUrl: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<IndexerReport> {
  const rounds = Number(env.BENCH_INDEXER_ROUNDS ?? env.BENCH_ROUNDS ?? 10);
  const batchSize = Number(env.BENCH_INDEXER_BATCH ?? env.BENCH_BATCH ?? 1000);
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const url = withSchema(databaseUrl, schema);
  log(`schema ${schema}; ${rounds} rounds of ${batchSize}-fill batches`);
  const app = await startAppServer({
    command: env.BENCH_SERVER_CMD || undefined,
    startupTimeoutMs: 180_000,
    env: {
      ...env,
      DATABASE_URL: url,
      INDEXER_SHARED_SECRET: SECRET,
      SIM_BACKFILL_TRADES: '0',
      WITHDRAWAL_DISPATCH_MS: '0',
    },
  });
  const pg = new Client({ connectionString: databaseUrl });
  await pg.connect();
  try {
    await pg.query(`SET search_path TO "${schema}"`);
    await pg.query('CREATE TABLE "BenchTrade" (LIKE "Trade" INCLUDING ALL)');
    const markets = (
      await pg.query<{ venueMarketId: string }>(
        `SELECT "venueMarketId" FROM "Market" WHERE "venue" = 'venue_a' ORDER BY 1`,
      )
    ).rows.map((r) => r.venueMarketId);
    const tokenIndex = new Map<string, { venueMarketId: string; outcome: 'yes' | 'no' }>();
    for (const m of markets)
      for (const o of ['yes', 'no'] as const) tokenIndex.set(outcomeTokenId(m, o), { venueMarketId: m, outcome: o });

    /**
     * The body as an indexer has it ready to send; serialized before the timer starts, like the baseline's fills are
     * made.
     */
    const bodyOf = (fills: OrderFilled[]) => JSON.stringify({ fills });
    const post = async (payload: string) => {
      const res = await fetch(`${app.baseUrl}/webhooks/chain-indexer/venue_a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-indexer-secret': SECRET },
        body: payload,
      });
      const ack = (await res.json()) as { received: number; skipped: number };
      if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${JSON.stringify(ack)}`);
      return ack;
    };
    // Warm-up (discarded): JIT, connection pools, the token index.
    await post(bodyOf(makeBatch(markets, batchSize)));
    await rawInsert(pg, makeBatch(markets, batchSize), tokenIndex);

    /** Waits until the server has announced every stored delivery (no TradeAnnouncement row left). */
    const announced = async () => {
      for (;;) {
        const { rows } = await pg.query<{ n: string }>('SELECT count(*) AS n FROM "TradeAnnouncement"');
        if (rows[0].n === '0') return;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    };
    await announced();

    let webhookMs = 0;
    let announcedMs = 0;
    let rawMs = 0;
    let written = 0;
    let rawWritten = 0;
    for (let r = 0; r < rounds; r += 1) {
      const a = bodyOf(makeBatch(markets, batchSize));
      const b = makeBatch(markets, batchSize);
      let t = process.hrtime.bigint();
      const ack = await post(a);
      webhookMs += Number(process.hrtime.bigint() - t) / 1e6;
      written += ack.received - ack.skipped;
      // The announcement (trader stats, followers, publication) runs after the answer: it is
      // finished before the baseline is timed, so it never slows the baseline down, and it is
      // measured on its own (the sustained rate includes it).
      await announced();
      announcedMs += Number(process.hrtime.bigint() - t) / 1e6;
      t = process.hrtime.bigint();
      rawWritten += await rawInsert(pg, b, tokenIndex);
      rawMs += Number(process.hrtime.bigint() - t) / 1e6;
    }
    // Redelivery of an already stored batch (all skipped).
    const again = bodyOf(makeBatch(markets, batchSize));
    await post(again);
    const t0 = process.hrtime.bigint();
    const dup = await post(again);
    const redeliveryMs = Number(process.hrtime.bigint() - t0) / 1e6;

    const fills = rounds * batchSize;
    const webhookRate = (fills / webhookMs) * 1000;
    const sustainedRate = (fills / announcedMs) * 1000;
    const rawRate = (fills / rawMs) * 1000;
    const report: IndexerReport = {
      at: new Date().toISOString(),
      batch: batchSize,
      rounds,
      webhook: { fillsPerSecond: Math.round(webhookRate), msPerBatch: Math.round(webhookMs / rounds), written },
      rawInsert: { fillsPerSecond: Math.round(rawRate), msPerBatch: Math.round(rawMs / rounds), written: rawWritten },
      ratio: Math.round((webhookRate / rawRate) * 100) / 100,
      announced: {
        fillsPerSecond: Math.round(sustainedRate),
        msPerBatch: Math.round(announcedMs / rounds),
        ratio: Math.round((sustainedRate / rawRate) * 100) / 100,
      },
      redelivery: { msPerBatch: Math.round(redeliveryMs), skipped: dup.skipped },
      redis: Boolean(env.REDIS_URL),
    };
    const dir = path.join(__dirname, 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'indexer.json'), `${JSON.stringify(report, null, 2)}\n`);
    if (written !== fills || rawWritten !== fills)
      throw new Error(`expected ${fills} new rows each, got ${written} and ${rawWritten}`);
    return report;
  } finally {
    await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await pg.end();
    await app.stop();
  }
}

if (require.main === module) {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    log('DATABASE_URL is required (PostgreSQL): this benchmark measures the webhook against raw PostgreSQL inserts.');
    process.exit(2);
  }
  runIndexerBench(databaseUrl).then(
    (report) => process.stdout.write(`${formatIndexerTable(report)}\n`),
    (err: unknown) => {
      log(err instanceof Error ? (err.stack ?? err.message) : String(err));
      process.exit(1);
    },
  );
}
