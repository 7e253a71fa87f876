/**
 * The database's floor under the stored simulated execution: the statements one
 * `POST /execute` runs (see the statement log of a run), sent by the bench itself
 * straight over the driver, with no HTTP, GraphQL, stream or ORM in the way, by the
 * same number of concurrent clients, each a trader of its own. Its rate is the most
 * this machine's database gives that transaction: the execution bench reports the
 * service's rate against it, as the HTTP figures are reported against bare Node.
 *
 * The floor (`shape: 'rowwise'`) is the equivalent transaction written plainly, one statement a
 * row, as an application without folded statements sends it: BEGIN; the position row locked
 * (SELECT … FOR UPDATE); the order, its fill inserted; the position updated; the ledger entries
 * inserted; the balance updated; the notification inserted; COMMIT.
 *
 * Also, as a second reference (`shape: 'service'`), the service's own ONE statement (no
 * transaction around it): the position upserted (its row locked and moved), the order and its fill
 * inserted, the paper ledger's entries and balance moved (the ledger's batch CTEs), the
 * notification stored and its user's push tokens read, and `statement_requires` that the balance
 * moved.
 *
 * PostgreSQL: a pool of one connection per client. Embedded: one PGlite on the data
 * folder the server used (after it stopped), its transactions one at a time as the
 * server's are.
 */
import { randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { createPGlite } from '../../src/db/pglite.adapter';
import { DEFAULT_PREPARED_STATEMENTS } from '../../src/db/database.settings';
import { createPostgresPool, statementNames } from '../../src/db/postgres.adapter';
import { measureWindow } from './process-cpu';

export interface FloorSettings {
  clients: number;
  seconds: number;
  warmupSec: number;
  /** The same rows one statement each (the floor), or the service's own one statement. */
  shape?: FloorShape;
  /** PostgreSQL: each statement prepared once per connection, as the service does (`statementNames`). */
  prepared?: boolean;
}

export type FloorShape = 'service' | 'rowwise';

export type FloorTarget = { kind: 'postgres'; databaseUrl: string } | { kind: 'pglite'; dataDir: string };

export interface FloorReport {
  executions: number;
  perSecond: number;
  /** The bench process's CPU per execution (driver, protocol, sockets), ms. */
  clientCpuMs: number;
  /** PostgreSQL's CPU per execution (ms, from `/proc`); undefined for PGlite or where unreadable. */
  databaseCpuMs?: number;
  /** Statements per execution, BEGIN and COMMIT included. */
  statementsPerExecution: number;
}

/** Runs one statement on one connection (`pg` and PGlite both answer with the rows). */
type Query = (text: string, params: unknown[]) => Promise<{ rows: unknown[] }>;

/** A connection per worker, and how to release everything. */
interface Connections {
  take(): Promise<{ query: Query; transaction: <T>(work: (q: Query) => Promise<T>) => Promise<T>; release(): void }>;
  close(): Promise<void>;
}

async function postgresConnections(databaseUrl: string, clients: number, prepared: boolean): Promise<Connections> {
  const { pool } = createPostgresPool({ databaseUrl, poolSize: clients });
  const nameOf = statementNames(prepared ? DEFAULT_PREPARED_STATEMENTS : 0);
  return {
    take: async () => {
      const c = await pool.connect();
      const query: Query = (text, params) =>
        prepared ? c.query({ name: nameOf({ sql: text }), text, values: params }) : c.query(text, params);
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
const WRITE_CTES = `p AS (
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
  )`;
/** The ledger service's batch statement (`postBatch`), for a grant (first time only), the notional and the fee. */
const LEDGER_CTES = `entries AS (
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
  )`;
/** The notification service's statement: stored, its user's push tokens read. */
const NOTIFY_CTES = `stored AS (
    INSERT INTO "Notification" ("id", "userId", "kind", "title", "body", "data")
    VALUES ($1, $2, 'order_fill', 'Order filled', 'Bought 1 YES at 0.23', $3::jsonb)
    ON CONFLICT DO NOTHING RETURNING "id", "userId"
  )`;
/** `sql`'s placeholders `$n` as `$(n + by)`, for its parameters after `by` others. */
const shifted = (sql: string, by: number) => sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + by}`);
/**
 * The recorder's one statement for a new simulated buy (`TradeRecorder.settleNewPaperBuy`): the
 * three above as CTEs of one statement (parameters: the write's 12, the ledger's 8, the
 * notification's 3), failed whole unless the balance moved.
 */
const ONE = `WITH ${WRITE_CTES}, ${shifted(LEDGER_CTES, 12)}, ${shifted(NOTIFY_CTES, 20)}
  SELECT p."id", moved."available" AS "balanceAvailable", moved."held" AS "balanceHeld",
  (SELECT json_agg(json_build_array(s."id", t."token")) FROM stored s JOIN "PushToken" t ON t."userId" = s."userId")
  AS "pushTo"
  FROM p LEFT JOIN moved ON true
  WHERE statement_requires(moved."available" IS NOT NULL, 'the balance did not move')`;

/** One worker's connection. */
type Connection = Awaited<ReturnType<Connections['take']>>;

/** The bench's order: a 1-contract buy at 0.23 with a 0.02 fee, what the service's bench order costs. */
const BUY = { size: 1_000_000n, price: 230_000n, notional: 230_000n, fee: 20_000n };

/** One buy's transaction on `c`, with an order id and a time of its own. */
function buyOnce(c: Connection, write: (q: Query, orderId: string, now: Date) => Promise<void>): Promise<void> {
  const orderId = randomUUID();
  const now = new Date();
  return c.transaction((q) => write(q, orderId, now));
}

/** The rowwise floor's statements: the same rows, one statement each (the position created beforehand). */
const ROW = {
  lock: `SELECT "id", "sizeMicros", "costBasisMicros", "realizedPnlMicros", "feesMicros" FROM "Position"
    WHERE "userId" = $1 AND "venue" = 'venue_b' AND "venueMarketId" = $2 AND "outcome" = 'yes'
    AND "mode" = 'simulation' FOR UPDATE`,
  order: `INSERT INTO "Order" ("id", "userId", "venue", "marketId", "venueMarketId", "outcome", "side", "orderType",
    "mode", "requestedSizeMicros", "filledSizeMicros", "avgPriceMicros", "notionalMicros", "feeMicros", "state",
    "source", "positionId", "createdAt", "updatedAt")
    VALUES ($1, $2, 'venue_b', $3, $4, 'yes', 'buy', 'market', 'simulation', $5, $5, $6, $7, $8, 'filled',
    'execute', $9, $10, $10)`,
  fill: `INSERT INTO "Fill" ("id", "orderId", "seq", "priceMicros", "sizeMicros", "feeMicros", "filledAt")
    VALUES ($1, $2, 1, $3, $4, $5, $6)`,
  position: `UPDATE "Position" SET "sizeMicros" = $2, "costBasisMicros" = $3, "realizedPnlMicros" = $4,
    "feesMicros" = $5, "status" = 'open', "closedAt" = NULL, "updatedAt" = $6 WHERE "id" = $1`,
  ledger: `INSERT INTO "LedgerEntry" ("userId", "currency", "kind", "availableDelta", "heldDelta", "reference",
    "idempotencyKey") VALUES ($1, 'PAPER_USD', 'trade_buy', $2, 0, $3, $4), ($1, 'PAPER_USD', 'trading_fee', $5, 0,
    $3, $6)`,
  balance: `UPDATE "LedgerBalance" SET "available" = "available" + $2, "updatedAt" = now()
    WHERE "userId" = $1 AND "currency" = 'PAPER_USD' AND "available" + $2 >= 0 RETURNING "available", "held"`,
  notify: `INSERT INTO "Notification" ("id", "userId", "kind", "title", "body", "data")
    VALUES ($1, $2, 'order_fill', 'Order filled', 'Bought 1 YES at 0.23', $3::jsonb)`,
};

/** The same buy as {@link executeOnce}, its rows written one statement each (the user's balance and position exist). */
function executeRowwise(c: Connection, userId: string, market: string): Promise<void> {
  const { size, price, notional, fee } = BUY;
  return buyOnce(c, async (q, orderId, now) => {
    const p = (await q(ROW.lock, [userId, market])).rows[0] as {
      id: string;
      sizeMicros: string;
      costBasisMicros: string;
      realizedPnlMicros: string;
      feesMicros: string;
    };
    await q(ROW.order, [orderId, userId, `venue_b:${market}`, market, size, price, notional, fee, p.id, now]);
    await q(ROW.fill, [randomUUID(), orderId, price, size, fee, now]);
    await q(ROW.position, [
      p.id,
      BigInt(p.sizeMicros) + size,
      BigInt(p.costBasisMicros) + notional,
      BigInt(p.realizedPnlMicros) - fee,
      BigInt(p.feesMicros) + fee,
      now,
    ]);
    const ref = `order:${orderId}`;
    await q(ROW.ledger, [userId, -notional, ref, `trade:${orderId}`, -fee, `fee:${orderId}:1`]);
    await q(ROW.balance, [userId, -(notional + fee)]);
    await q(ROW.notify, [randomUUID(), userId, JSON.stringify({ orderId, state: 'filled' })]);
  });
}

/** The bench's buy in the service's one statement (no transaction: the statement is its own). */
async function executeOnce(c: Connection, userId: string, positionId: string, market: string): Promise<void> {
  const { size, price, notional, fee } = BUY;
  const orderId = randomUUID();
  const now = new Date();
  const ref = `order:${orderId}`;
  await c.query(ONE, [
    // The position, order and fill.
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
    // The ledger batch.
    userId,
    `paper:${userId}`,
    `paper_grant:${userId}`,
    -notional,
    ref,
    `trade:${orderId}`,
    -fee,
    `fee:${orderId}:1`,
    // The notification.
    randomUUID(),
    userId,
    JSON.stringify({ orderId, state: 'filled' }),
  ]);
}

export async function runExecuteFloor(settings: FloorSettings, target: FloorTarget): Promise<FloorReport> {
  const connections =
    target.kind === 'postgres'
      ? await postgresConnections(target.databaseUrl, settings.clients, settings.prepared === true)
      : await pgliteConnections(target.dataDir);
  try {
    let statements = 0;
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
        // The rowwise floor moves an existing balance (the service's first order grants it).
        await c.query(
          `INSERT INTO "LedgerBalance" ("userId", "currency", "available", "held", "updatedAt")
           VALUES ($1, 'PAPER_USD', 1000000000000, 0, now())`,
          [userId],
        );
        // Every statement counted: each transaction's own, and its BEGIN and COMMIT.
        const counted: typeof c = {
          ...c,
          query: (text, params) => {
            statements += 1;
            return c.query(text, params);
          },
          transaction: (work) =>
            c.transaction((q) => {
              statements += 2;
              return work((text, params) => {
                statements += 1;
                return q(text, params);
              });
            }),
        };
        return { c: counted, userId, positionId };
      }),
    );
    const phase = async (seconds: number) => {
      let done = 0;
      const until = performance.now() + seconds * 1000;
      await Promise.all(
        workers.map(async (w) => {
          while (performance.now() < until) {
            if (settings.shape === 'service') await executeOnce(w.c, w.userId, randomUUID(), market);
            else await executeRowwise(w.c, w.userId, market);
            done += 1;
          }
        }),
      );
      return done;
    };
    if (settings.warmupSec > 0) await phase(settings.warmupSec);
    statements = 0;
    const window = await measureWindow(() => phase(settings.seconds), target.kind === 'postgres');
    const executions = window.value;
    for (const w of workers) w.c.release();
    const each = (ms: number) => (executions > 0 ? Math.round((ms / executions) * 100) / 100 : 0);
    return {
      executions,
      statementsPerExecution: executions > 0 ? Math.round((statements / executions) * 10) / 10 : 0,
      perSecond: Math.round((executions / window.seconds) * 10) / 10,
      clientCpuMs: each(window.clientCpuMs),
      databaseCpuMs: window.databaseCpuMs !== undefined && executions > 0 ? each(window.databaseCpuMs) : undefined,
    };
  } finally {
    await connections.close();
  }
}
