import { randomUUID } from 'node:crypto';
import { Prisma, type Fill, type Order, type Position } from '../../db/generated/client';
import type { SqlClient } from '../../db/raw-sql';
import type { OrderSource } from './execution.limits';
import type { OrderDraft, RecordedFill } from './execution.models';
import type { PositionMove } from './position-rows';

/**
 * The order and fill rows the recorder writes in one statement each (raw SQL where Prisma would
 * compile a statement afresh every time), and the draft an order row was made from.
 */

/** The draft an order row was made from (the reconciler ends orders whose runner is gone). */
export function draftOf(o: Order): OrderDraft {
  return {
    id: o.id,
    userId: o.userId,
    venue: o.venue,
    marketKey: o.marketId,
    venueMarketId: o.venueMarketId,
    coreEventId: o.coreEventId,
    outcome: o.outcome,
    side: o.side,
    orderType: o.orderType,
    mode: o.mode,
    limitPriceMicros: o.limitPriceMicros,
    requestedSizeMicros: o.requestedSizeMicros,
    source: o.source as OrderSource,
    positionId: o.positionId,
    idempotencyKey: o.idempotencyKey,
  };
}

/** The columns of a new order row that its draft decides. */
export function orderRowOf(d: OrderDraft) {
  return {
    id: d.id,
    userId: d.userId,
    venue: d.venue,
    marketId: d.marketKey,
    venueMarketId: d.venueMarketId,
    coreEventId: d.coreEventId,
    outcome: d.outcome,
    side: d.side,
    orderType: d.orderType,
    mode: d.mode,
    limitPriceMicros: d.limitPriceMicros,
    requestedSizeMicros: d.requestedSizeMicros,
    source: d.source,
    positionId: d.positionId,
    idempotencyKey: d.idempotencyKey,
  };
}

/** An order's fills as the rows they are written as (ids made here, `seq` from 1). */
export function fillRowsOf(orderId: string, fills: readonly RecordedFill[]): Fill[] {
  return fills.map((f, i) => ({
    id: randomUUID(),
    orderId,
    seq: i + 1,
    priceMicros: f.price,
    sizeMicros: f.size,
    feeMicros: f.fee,
    filledAt: f.filledAt,
  }));
}

/** The `Fill` rows, for an INSERT's VALUES. */
function fillValues(fills: readonly Fill[]): Prisma.Sql {
  return Prisma.join(
    fills.map(
      (f) =>
        Prisma.sql`(${f.id}, ${f.orderId}, ${f.seq}::int, ${f.priceMicros}, ${f.sizeMicros}, ${f.feeMicros},
        ${f.filledAt})`,
    ),
  );
}

const FILL_COLUMNS = Prisma.raw(`"id", "orderId", "seq", "priceMicros", "sizeMicros", "feeMicros", "filledAt"`);

/**
 * An order's fills, in one statement. Raw SQL, not `fill.createMany`: Prisma compiles every
 * `createMany` afresh (its query plan cache skips them).
 */
export async function insertFills(tx: SqlClient, fills: readonly Fill[]): Promise<void> {
  if (fills.length > 0) await tx.$executeRaw`INSERT INTO "Fill" (${FILL_COLUMNS}) VALUES ${fillValues(fills)}`;
}

/** The position columns a write returns (as Prisma's `Position`). */
const POSITION_RETURNING = Prisma.raw(`"id", "userId", "venue"::text AS "venue", "marketId", "venueMarketId",
  "coreEventId", "outcome"::text AS "outcome", "status"::text AS "status", "sizeMicros", "costBasisMicros",
  "realizedPnlMicros", "feesMicros", "openedAt", "closedAt", "updatedAt", "mode"::text AS "mode"`);

/** A new order as written: filled, no runner following it (no owner), stamped `at`. */
type NewOrderRow = Omit<Order, 'createdAt' | 'updatedAt' | 'externalOrderId' | 'ownerId'> & {
  externalOrderId?: string;
};

function writtenOrder(order: NewOrderRow, at: Date, positionId: string): Order {
  return {
    ...order,
    positionId,
    externalOrderId: order.externalOrderId ?? null,
    ownerId: null,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * The order's INSERT and its fills' (CTEs `o` and `f`), after a CTE `p` that returns the position
 * row: the order takes its position id from `p`.
 */
function orderAndFills(o: Order, fills: readonly Fill[]): Prisma.Sql {
  const fillsCte =
    fills.length > 0
      ? Prisma.sql`, f AS (INSERT INTO "Fill" (${FILL_COLUMNS}) VALUES ${fillValues(fills)})`
      : Prisma.empty;
  return Prisma.sql`, o AS (
      INSERT INTO "Order" ("id", "userId", "venue", "marketId", "venueMarketId", "coreEventId", "outcome", "side",
      "orderType", "mode", "limitPriceMicros", "requestedSizeMicros", "filledSizeMicros", "avgPriceMicros",
      "notionalMicros", "feeMicros", "state", "failureReason", "source", "positionId", "externalOrderId",
      "idempotencyKey", "createdAt", "updatedAt")
      SELECT ${o.id}, ${o.userId}, ${o.venue}::"Venue", ${o.marketId}, ${o.venueMarketId}, ${o.coreEventId},
      ${o.outcome}::"Outcome", ${o.side}::"TradeSide", ${o.orderType}::"OrderType", ${o.mode}::"ExecutionMode",
      ${o.limitPriceMicros}, ${o.requestedSizeMicros}, ${o.filledSizeMicros}, ${o.avgPriceMicros}, ${o.notionalMicros},
      ${o.feeMicros}, ${o.state}::"OrderState", ${o.failureReason}, ${o.source}, p."id", ${o.externalOrderId},
      ${o.idempotencyKey}, ${o.createdAt}, ${o.updatedAt} FROM p
    )${fillsCte}`;
}

/**
 * A new filled order's rows in ONE statement: its position moved (the row locked by
 * `planPosition`), the order inserted, its fills inserted; the position as it now
 * stands. Three statements' round trips and ORM work fewer than writing them one by one; the
 * order is returned as written (`createdAt` and `updatedAt` are the time given).
 */
export async function writeNewOrder(
  tx: SqlClient,
  move: PositionMove,
  order: NewOrderRow,
  fills: readonly Fill[],
): Promise<{ position: Position; order: Order }> {
  const o = writtenOrder(order, move.updatedAt, move.id);
  const [position] = await tx.$queryRaw<Position[]>`
    WITH p AS (
      UPDATE "Position" SET "sizeMicros" = ${move.sizeMicros}, "costBasisMicros" = ${move.costBasisMicros},
      "realizedPnlMicros" = ${move.realizedPnlMicros}, "feesMicros" = ${move.feesMicros},
      "status" = ${move.status}::"PositionStatus", "closedAt" = ${move.closedAt},
      "openedAt" = COALESCE(${move.openedAt ?? null}, "openedAt"), "updatedAt" = ${move.updatedAt}
      WHERE "id" = ${move.id}
      RETURNING ${POSITION_RETURNING}
    )${orderAndFills(o, fills)}
    SELECT * FROM p`;
  return { position, order: o };
}

/**
 * A new filled BUY's rows as the CTEs `p` (the position, created or moved by an upsert:
 * `INSERT … ON CONFLICT DO UPDATE` locks the row it moves, so concurrent orders on it serialize,
 * and moves it from its newest version), `o` (the order, with its position's id) and `f` (its
 * fills); the order as written, but for its position id (the statement's `p."id"`). A buy only
 * adds to a position (`applyFill`: size, cost basis and fees up by the fills', realized PnL down by
 * their fees; open; opened now if it held nothing), so it needs no read of the row first.
 */
export function newBuyCtes(
  d: OrderDraft,
  add: { size: bigint; notional: bigint; fees: bigint },
  order: NewOrderRow,
  fills: readonly Fill[],
): { ctes: Prisma.Sql; order: Order } {
  const at = new Date();
  const o = writtenOrder(order, at, '');
  const ctes = Prisma.sql`p AS (
      INSERT INTO "Position" AS cur ("id", "userId", "venue", "marketId", "venueMarketId", "coreEventId", "outcome",
      "status", "sizeMicros", "costBasisMicros", "realizedPnlMicros", "feesMicros", "mode", "openedAt", "updatedAt")
      VALUES (${randomUUID()}, ${d.userId}, ${d.venue}::"Venue", ${d.marketKey}, ${d.venueMarketId}, ${d.coreEventId},
      ${d.outcome}::"Outcome", 'open'::"PositionStatus", ${add.size}, ${add.notional}, ${-add.fees}, ${add.fees},
      ${d.mode}::"ExecutionMode", ${at}, ${at})
      ON CONFLICT ("userId", "venue", "venueMarketId", "outcome", "mode") DO UPDATE SET
      "sizeMicros" = cur."sizeMicros" + EXCLUDED."sizeMicros",
      "costBasisMicros" = cur."costBasisMicros" + EXCLUDED."costBasisMicros",
      "realizedPnlMicros" = cur."realizedPnlMicros" + EXCLUDED."realizedPnlMicros",
      "feesMicros" = cur."feesMicros" + EXCLUDED."feesMicros",
      "status" = 'open'::"PositionStatus", "closedAt" = NULL,
      "openedAt" = CASE WHEN cur."sizeMicros" = 0 THEN EXCLUDED."openedAt" ELSE cur."openedAt" END,
      "updatedAt" = EXCLUDED."updatedAt"
      RETURNING ${POSITION_RETURNING}
    )${orderAndFills(o, fills)}`;
  return { ctes, order: o };
}

/**
 * A new filled BUY's rows in ONE statement ({@link newBuyCtes}), its position's lock included: one
 * statement where a lock, a write (and for a first buy a create and a second lock) were.
 */
export async function writeNewBuy(
  tx: SqlClient,
  d: OrderDraft,
  add: { size: bigint; notional: bigint; fees: bigint },
  order: NewOrderRow,
  fills: readonly Fill[],
): Promise<{ position: Position; order: Order }> {
  const { ctes, order: o } = newBuyCtes(d, add, order, fills);
  const [position] = await tx.$queryRaw<Position[]>`WITH ${ctes} SELECT * FROM p`;
  return { position, order: { ...o, positionId: position.id } };
}
