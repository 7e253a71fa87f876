import { randomUUID } from 'node:crypto';
import type { Position, Prisma } from '../../db/generated/client';
import type { SqlClient } from '../../db/raw-sql';
import { mulMicros } from '../../money';
import { applyFill, OversellError, type PositionState } from '../portfolio/position.math';
import type { OrderDraft, RecordedFill } from './execution.models';

/**
 * The position row an order moves, inside the recorder's transactions: one
 * row per user, venue market, outcome and mode (live, or the paper account), locked before it is read or written
 * so concurrent orders on it serialize. Status `open` holds contracts,
 * `closed` was sold out, `pending` waits for a live buy's first fill.
 */

/** The columns of a locked position row. */
interface LockedPosition {
  id: string;
  status: 'open' | 'closed' | 'pending';
  sizeMicros: bigint;
  costBasisMicros: bigint;
  realizedPnlMicros: bigint;
  feesMicros: bigint;
  closedAt: Date | null;
}

/**
 * The position row of the order's market outcome, locked and read in one statement (the lock serializes orders on
 * it).
 */
export async function lockPosition(tx: SqlClient, d: OrderDraft): Promise<LockedPosition | undefined> {
  const [row] = await tx.$queryRaw<LockedPosition[]>`
    SELECT "id", "status"::text AS "status", "sizeMicros", "costBasisMicros", "realizedPnlMicros", "feesMicros",
    "closedAt" FROM "Position"
    WHERE "userId" = ${d.userId} AND "venue" = ${d.venue}::"Venue" AND "venueMarketId" = ${d.venueMarketId} AND
    "outcome" = ${d.outcome}::"Outcome" AND "mode" = ${d.mode}::"ExecutionMode"
    FOR UPDATE`;
  return row;
}

/**
 * Creates the empty position row of the order's market outcome (size 0), unless a concurrent
 * order created it first: the caller locks it afterwards. Raw SQL, not `position.createMany`:
 * Prisma compiles every `createMany` afresh (its query plan cache skips them).
 */
async function createEmptyPosition(tx: SqlClient, d: OrderDraft, status: 'open' | 'pending'): Promise<void> {
  const now = new Date();
  await tx.$executeRaw`
    INSERT INTO "Position" ("id", "userId", "venue", "marketId", "venueMarketId", "coreEventId", "outcome", "status",
    "sizeMicros", "costBasisMicros", "mode", "openedAt", "updatedAt")
    VALUES (${randomUUID()}, ${d.userId}, ${d.venue}::"Venue", ${d.marketKey}, ${d.venueMarketId}, ${d.coreEventId},
    ${d.outcome}::"Outcome", ${status}::"PositionStatus", 0, 0, ${d.mode}::"ExecutionMode", ${now}, ${now})
    ON CONFLICT ("userId", "venue", "venueMarketId", "outcome", "mode") DO NOTHING`;
}

/**
 * A live buy opening where the user holds no open position: the position
 * shows `pending` (size 0) until the order ends. A new row is created; a
 * closed one (the same market outcome held before) turns pending, its PnL
 * and `closedAt` kept. The first fill makes it `open` ({@link applyToPosition}).
 */
export async function markPending(tx: Prisma.TransactionClient, d: OrderDraft): Promise<void> {
  const current = await lockPosition(tx, d);
  if (!current) {
    await createEmptyPosition(tx, d, 'pending');
  } else if (current.status === 'closed') {
    await tx.position.update({ where: { id: current.id }, data: { status: 'pending' } });
  }
}

/**
 * A live buy ended without fills: its pending position goes away (never
 * held: the row is deleted; held before: back to `closed`), unless another
 * live buy of the user on that market outcome is still open.
 */
export async function undoPending(tx: Prisma.TransactionClient, d: OrderDraft): Promise<void> {
  const current = await lockPosition(tx, d);
  if (current?.status !== 'pending') return;
  const others = await tx.order.count({
    where: {
      userId: d.userId,
      venue: d.venue,
      venueMarketId: d.venueMarketId,
      outcome: d.outcome,
      side: 'buy',
      mode: 'live',
      state: { in: ['pending', 'submitted'] },
      id: { not: d.id },
    },
  });
  if (others > 0) return;
  if (current.closedAt === null) await tx.position.delete({ where: { id: current.id } });
  else await tx.position.update({ where: { id: current.id }, data: { status: 'closed' } });
}

/**
 * A sell asked for more contracts than the position has free: its size less what the user's open
 * sell orders on it hold. Nothing was written.
 */
export class PositionHeldError extends Error {
  constructor(
    /** The position row (null: the user holds no such position). */
    readonly positionId: string | null,
    readonly sizeMicros: bigint,
    /** What open sell orders hold of it. */
    readonly heldMicros: bigint,
    readonly requestedMicros: bigint,
  ) {
    super(`selling ${requestedMicros} of position ${positionId}: ${sizeMicros - heldMicros} free`);
    this.name = 'PositionHeldError';
  }
}

/**
 * The contracts of the order's market outcome (its user and mode) that the user's open sell orders
 * hold: what each still asks for (requested less filled) while it is `pending` or `submitted`. An
 * order holds from the transaction that creates it until the one that moves it to its end state
 * (filled, partially filled, cancelled, rejected, failed), so the hold needs no column of its own.
 */
export async function heldBySells(
  tx: Prisma.TransactionClient,
  d: Pick<OrderDraft, 'userId' | 'venue' | 'venueMarketId' | 'outcome' | 'mode'>,
): Promise<bigint> {
  const open = await tx.order.aggregate({
    _sum: { requestedSizeMicros: true, filledSizeMicros: true },
    where: {
      userId: d.userId,
      venue: d.venue,
      venueMarketId: d.venueMarketId,
      outcome: d.outcome,
      mode: d.mode,
      side: 'sell',
      state: { in: ['pending', 'submitted'] },
    },
  });
  return (open._sum.requestedSizeMicros ?? 0n) - (open._sum.filledSizeMicros ?? 0n);
}

/**
 * A sell opening before it reaches the venue: locks the position row (concurrent sells of it
 * serialize here) and refuses with {@link PositionHeldError} when its size less what open sells
 * hold is below the order's size. The caller inserts the order in the same transaction, so the
 * order holds its size from the commit on.
 */
export async function reserveForSell(tx: Prisma.TransactionClient, d: OrderDraft): Promise<void> {
  const current = await lockPosition(tx, d);
  const size = current?.sizeMicros ?? 0n;
  const held = await heldBySells(tx, d);
  if (d.requestedSizeMicros > size - held)
    throw new PositionHeldError(current?.id ?? null, size, held, d.requestedSizeMicros);
}

/** A locked position row and what an order's fills make of it (see {@link planPosition}). */
export interface PositionMove {
  id: string;
  sizeMicros: bigint;
  costBasisMicros: bigint;
  realizedPnlMicros: bigint;
  feesMicros: bigint;
  status: 'open' | 'closed';
  closedAt: Date | null;
  /** Set when the row goes from holding nothing to holding contracts. */
  openedAt?: Date;
  updatedAt: Date;
}

/**
 * Locks the position row (creating it for a first buy) and applies the fills with the position
 * math: the row's new figures, not yet written ({@link writePosition}, or the recorder's one
 * statement for a new order).
 */
export async function planPosition(
  tx: SqlClient,
  d: OrderDraft,
  fills: readonly RecordedFill[],
): Promise<PositionMove> {
  const lock = () => lockPosition(tx, d);
  let current = await lock();
  if (!current && d.side === 'buy') {
    await createEmptyPosition(tx, d, 'open');
    current = await lock();
  }
  if (!current)
    throw new OversellError(
      0n,
      fills.reduce((s, f) => s + f.size, 0n),
    );
  let state: PositionState = {
    size: current.sizeMicros,
    costBasis: current.costBasisMicros,
    realizedPnl: current.realizedPnlMicros,
    fees: current.feesMicros,
  };
  for (const f of fills)
    state = applyFill(state, { side: d.side, size: f.size, notional: mulMicros(f.price, f.size), fee: f.fee });
  const reopened = current.sizeMicros === 0n && state.size > 0n;
  const now = new Date();
  return {
    id: current.id,
    sizeMicros: state.size,
    costBasisMicros: state.costBasis,
    realizedPnlMicros: state.realizedPnl,
    feesMicros: state.fees,
    status: state.size > 0n ? 'open' : 'closed',
    closedAt: state.size > 0n ? null : now,
    ...(reopened && { openedAt: now }),
    updatedAt: now,
  };
}

/** Writes a planned move to its (locked) row. */
export function writePosition(tx: Prisma.TransactionClient, move: PositionMove): Promise<Position> {
  const { id, ...data } = move;
  return tx.position.update({ where: { id }, data });
}
