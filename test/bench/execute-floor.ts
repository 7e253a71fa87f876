/**
 * The database's floor under the stored simulated execution: the statements one
 * `POST /execute` runs (see the statement log of a run), sent by the bench itself
 * straight over the driver, with no HTTP, GraphQL, stream or ORM in the way, by the
 * same number of concurrent clients, each a trader of its own. Its rate is the most
 * this machine's database gives that transaction: the execution bench reports the
 * service's rate against it, as the HTTP figures are reported against bare Node.
 *
 * Per execution, in order: BEGIN; the position upserted (its row locked and moved), the
 * order and its fill inserted (one statement); the paper
 * ledger's entries and balance moved (one statement: the ledger's batch CTE); the
 * notification stored and its user's push tokens read (one statement); COMMIT.
 *
 * PostgreSQL: a pool of one connection per client. Embedded: one PGlite on the data
 * folder the server used (after it stopped), its transactions one at a time as the
 * server's are.
 */
import { randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { createPGlite } from '../../src/db/pglite.adapter';
import { createPostgresPool } from '../../src/db/postgres.adapter';
import { postgresCpuMs } from './process-cpu';

export interface FloorSettings {
  clients: number;
  seconds: number;
  warmupSec: number;
}

export type FloorTarget = { kind: 'postgres'; databaseUrl: string } | { kind: 'pglite'; dataDir: string };

export interface FloorReport {
  executions: number;
  perSecond: number;
  /** The bench process's CPU per execution (driver, protocol, sockets), ms. */
  clientCpuMs: number;
  /** PostgreSQL's CPU per execution (ms, from `/proc`); undefined for PGlite or where unreadable. */
  databaseCpuMs?: number;
}

/** Runs one statement on one connection. */
type Query = (text: string, params: unknown[]) => Promise<unknown>;

/** A connection per worker, and how to release everything. */
interface Connections {
  take(): Promise<{ query: Query; transaction: <T>(work: (q: Query) => Promise<T>) => Promise<T>; release(): void }>;
  close(): Promise<void>;
}

async function postgresConnections(databaseUrl: string, clients: number): Promise<Connections> {
  const { pool } = createPostgresPool({ databaseUrl, poolSize: clients });
  return {
    take: async () => {
      const c = await pool.connect();
      const query: Query = (text, params) => c.query(text, params);
      return {
        query,
        transaction: async (work) => {
          await c.query('BEGIN');
          try {
            const out = await work(query);
            await c.query('COMMIT');
            return out;
          } catch (err) {
            await c.query('ROLLBACK');
            throw err;
          }
        },
        release: () => c.release(),
      };
    },
    close: () => pool.end(),
  };
}

async function pgliteConnections(dataDir: string): Promise<Connections> {
  const db: PGlite = await createPGlite({ dataDir });
  const query: Query = (text, params) => db.query(text, params);
  return {
    // PGlite runs one transaction at a time (its transaction() waits for the one before).
    take: () =>
      Promise.resolve({
        query,
        transaction: (work) => db.transaction((tx) => work((text, params) => tx.query(text, params))),
        release: () => undefined,
      }),
    close: () => db.close(),
  };
}

/**
 * The recorder's one statement for a new buy (`writeNewBuy`): the position upserted (created or
 * moved, which locks its row), the order and its fill inserted.
 */
const WRITE = `WITH p AS (
    INSERT INTO "Position" AS cur ("id", "userId", "venue", "marketId", "venueMarketId", "outcome", "status",
    "sizeMicros", "costBasisMicros", "realizedPnlMicros", "feesMicros", "mode", "openedAt", "updatedAt")
    VALUES ($5, $7, 'venue_b', $8, $9, 'yes', 'open', $1, $2, -$3::bigint, $3, 'simulation', $4, $4)
    ON CONFLICT ("userId", "venue", "venueMarketId", "outcome", "mode") DO UPDATE SET
    "sizeMicros" = cur."sizeMicros" + EXCLUDED."sizeMicros",
    "costBasisMicros" = cur."costBasisMicros" + EXCLUDED."costBasisMicros",
    "realizedPnlMicros" = cur."realizedPnlMicros" + EXCLUDED."realizedPnlMicros",
    "feesMicros" = cur."feesMicros" + EXCLUDED."feesMicros", "status" = 'open', "closedAt" = NULL,
    "openedAt" = CASE WHEN cur."sizeMicros" = 0 THEN EXCLUDED."openedAt" ELSE cur."openedAt" END,
    "updatedAt" = EXCLUDED."updatedAt"
    RETURNING *
  ), o AS (
    INSERT INTO "Order" ("id", "userId", "venue", "marketId", "venueMarketId", "outcome", "side", "orderType", "mode",
    "requestedSizeMicros", "filledSizeMicros", "avgPriceMicros", "notionalMicros", "feeMicros", "state", "source",
    "positionId", "createdAt", "updatedAt")
    SELECT $6, $7, 'venue_b', $8, $9, 'yes', 'buy', 'market', 'simulation', $10, $10, $11, $2, $3, 'filled',
    'execute', p."id", $4, $4 FROM p
  ), f AS (
    INSERT INTO "Fill" ("id", "orderId", "seq", "priceMicros", "sizeMicros", "feeMicros", "filledAt")
    VALUES ($12, $6, 1, $11, $1, $3, $4)
  )
  SELECT * FROM p`;
/** The ledger service's batch statement (`postBatch`), for a grant (first time only), the notional and the fee. */
const LEDGER = `WITH entries AS (
    INSERT INTO "LedgerEntry" ("userId", "currency", "kind", "availableDelta", "heldDelta", "reference",
      "idempotencyKey")
    VALUES ($1, 'PAPER_USD', 'paper_grant', 1000000000000, 0, $2, $3), ($1, 'PAPER_USD', 'trade_buy', $4, 0, $5, $6),
      ($1, 'PAPER_USD', 'trading_fee', $7, 0, $5, $8)
    ON CONFLICT ("idempotencyKey") DO NOTHING RETURNING "idempotencyKey", "availableDelta", "heldDelta"
  ), net AS (
    SELECT count(*)::int AS "n", COALESCE(sum("availableDelta"), 0)::bigint AS "available",
    COALESCE(sum("heldDelta"), 0)::bigint AS "held" FROM entries
  ), moved AS (
    INSERT INTO "LedgerBalance" ("userId", "currency", "available", "held", "updatedAt")
    SELECT $1, 'PAPER_USD', GREATEST(net."available", 0), GREATEST(net."held", 0), now() FROM net
    WHERE net."n" > 0 AND ((net."available" >= 0 AND net."held" >= 0) OR EXISTS (
      SELECT 1 FROM "LedgerBalance" WHERE "userId" = $1 AND "currency" = 'PAPER_USD'))
    ON CONFLICT ("userId", "currency") DO UPDATE SET
      "available" = "LedgerBalance"."available" + (SELECT "available" FROM net),
      "held" = "LedgerBalance"."held" + (SELECT "held" FROM net), "updatedAt" = EXCLUDED."updatedAt"
    WHERE "LedgerBalance"."available" + (SELECT "available" FROM net) >= 0
      AND "LedgerBalance"."held" + (SELECT "held" FROM net) >= 0
    RETURNING "available", "held"
  )
  SELECT (SELECT array_agg("idempotencyKey") FROM entries) AS "keys", net."n", net."available", net."held",
  moved."available", moved."held" FROM net LEFT JOIN moved ON true`;
const NOTIFY = `WITH stored AS (
    INSERT INTO "Notification" ("id", "userId", "kind", "title", "body", "data")
    VALUES ($1, $2, 'order_fill', 'Order filled', 'Bought 1 YES at 0.23', $3::jsonb)
    ON CONFLICT DO NOTHING RETURNING "id", "userId"
  )
  SELECT s."id", t."token" FROM stored s LEFT JOIN "PushToken" t ON t."userId" = s."userId"`;

/** A 1-contract buy at 0.23 with a 0.02 fee: what the service's bench order costs. */
async function executeOnce(
  c: Awaited<ReturnType<Connections['take']>>,
  userId: string,
  positionId: string,
  market: string,
): Promise<void> {
  const orderId = randomUUID();
  const now = new Date();
  const [size, price, notional, fee] = [1_000_000n, 230_000n, 230_000n, 20_000n];
  await c.transaction(async (q) => {
    await q(WRITE, [
      size,
      notional,
      fee,
      now,
      positionId,
      orderId,
      userId,
      `venue_b:${market}`,
      market,
      size,
      price,
      randomUUID(),
    ]);
    const ref = `order:${orderId}`;
    await q(LEDGER, [
      userId,
      `paper:${userId}`,
      `paper_grant:${userId}`,
      -notional,
      ref,
      `trade:${orderId}`,
      -fee,
      `fee:${orderId}:1`,
    ]);
    await q(NOTIFY, [randomUUID(), userId, JSON.stringify({ orderId, state: 'filled' })]);
  });
}

export async function runExecuteFloor(settings: FloorSettings, target: FloorTarget): Promise<FloorReport> {
  const connections =
    target.kind === 'postgres'
      ? await postgresConnections(target.databaseUrl, settings.clients)
      : await pgliteConnections(target.dataDir);
  try {
    const run = randomUUID().slice(0, 8);
    const market = `FLOOR-${run}`;
    const workers = await Promise.all(
      Array.from({ length: settings.clients }, async (_, i) => {
        const c = await connections.take();
        const userId = `bench-floor-${run}-${i}`;
        const positionId = randomUUID();
        await c.query(
          `INSERT INTO "Position" ("id", "userId", "venue", "marketId", "venueMarketId", "outcome", "status",
           "sizeMicros", "costBasisMicros", "updatedAt", "mode")
           VALUES ($1, $2, 'venue_b', $3, $4, 'yes', 'open', 0, 0, now(), 'simulation')`,
          [positionId, userId, `venue_b:${market}`, market],
        );
        return { c, userId, positionId };
      }),
    );
    const phase = async (seconds: number) => {
      let done = 0;
      const until = performance.now() + seconds * 1000;
      await Promise.all(
        workers.map(async (w) => {
          while (performance.now() < until) {
            await executeOnce(w.c, w.userId, randomUUID(), market);
            done += 1;
          }
        }),
      );
      return done;
    };
    if (settings.warmupSec > 0) await phase(settings.warmupSec);
    const dbBefore = target.kind === 'postgres' ? postgresCpuMs() : undefined;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const executions = await phase(settings.seconds);
    const elapsed = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const dbAfter = dbBefore === undefined ? undefined : postgresCpuMs();
    for (const w of workers) w.c.release();
    return {
      executions,
      perSecond: Math.round((executions / elapsed) * 10) / 10,
      clientCpuMs: executions > 0 ? Math.round(((used.user + used.system) / 1000 / executions) * 100) / 100 : 0,
      databaseCpuMs:
        dbBefore !== undefined && dbAfter !== undefined && executions > 0
          ? Math.round(((dbAfter - dbBefore) / executions) * 100) / 100
          : undefined,
    };
  } finally {
    await connections.close();
  }
}
