import type { PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import { microsToNumber, toMicros } from '../../money';
import type { OutcomeSide } from '../../venues/venue.models';
import type { ExecuteRequest, OrderDraft, SellRequest } from './execution.models';
import { heldBySells, PositionHeldError } from './position-rows';

/**
 * What a sell may take of a position: its size less what the user's open sell
 * orders on it hold (see `heldBySells`). These reads answer a request early
 * with a clear 400; the rule itself is enforced under the position's row lock
 * when the order is opened (`reserveForSell`) or settled (the position math).
 * Paper orders are written in their end state (nothing is placed before they
 * settle), so nothing holds a paper position: its reads skip the sum.
 */

const n = microsToNumber;

/** A position's size and what open sells hold of it. */
interface Holding {
  positionId: string | null;
  size: bigint;
  held: bigint;
}

/**
 * The 400 for a sell of more than a position's free contracts: `field` is the
 * request field at fault (`size`, or `positionId` when the body named no size).
 */
export function overFree(h: Holding, outcome: OutcomeSide, field: 'size' | 'positionId' = 'size'): AppError {
  const free = h.size - h.held > 0n ? h.size - h.held : 0n;
  if (h.positionId === null || h.held === 0n)
    return AppError.badRequest(field, `exceeds your position of ${n(h.size)} ${outcome} contracts`);
  return AppError.badRequest(
    field,
    `position ${h.positionId} has ${n(free)} ${outcome} contracts free to sell: ${n(h.held)} of its ` +
      `${n(h.size)} are held by open sell orders until they end`,
  );
}

/** The 400 for a {@link PositionHeldError} (a sell refused under the position's lock). */
export function heldRefusal(err: PositionHeldError, outcome: OutcomeSide): AppError {
  return overFree({ positionId: err.positionId, size: err.sizeMicros, held: err.heldMicros }, outcome);
}

/**
 * A sell through `/execute` (or a copy): 400 when it asks for more than the
 * caller's position of that market outcome has free.
 */
export async function checkHolding(prisma: PrismaClient, d: OrderDraft): Promise<void> {
  const pos = await prisma.position.findUnique({
    where: {
      userId_venue_venueMarketId_outcome_mode: {
        userId: d.userId,
        venue: d.venue,
        venueMarketId: d.venueMarketId,
        outcome: d.outcome,
        mode: d.mode,
      },
    },
  });
  const size = pos?.sizeMicros ?? 0n;
  const held = size > 0n && d.mode === 'live' ? await heldBySells(prisma, d) : 0n;
  if (d.requestedSizeMicros > size - held) throw overFree({ positionId: pos?.id ?? null, size, held }, d.outcome);
}

/**
 * The sell a position allows; 404 unknown or not the caller's, 400 closed,
 * pending, in the other mode or above its free size. No size sells all that
 * is free; selling all of it (no size, or exactly the free size) carries the
 * exact size on, past the venue's order precision.
 */
export async function positionSellRequest(
  prisma: PrismaClient,
  positionId: string,
  body: SellRequest,
  userId: string,
): Promise<{ request: ExecuteRequest; exactSizeMicros?: bigint }> {
  const pos = positionId.length <= 100 ? await prisma.position.findUnique({ where: { id: positionId } }) : null;
  if (!pos || pos.userId !== userId) throw AppError.notFound(`position ${positionId}`);
  if (pos.sizeMicros === 0n)
    throw AppError.badRequest(
      'positionId',
      `the position is ` +
        `${pos.status === 'pending' ? 'pending (its first order has not filled yet)' : 'closed'}: nothing to sell`,
    );
  if (body.mode !== undefined && body.mode !== pos.mode)
    throw AppError.badRequest(
      'mode',
      pos.mode === 'live'
        ? 'the position is live: it sells in live mode'
        : 'the position is in the paper account: it sells in simulation mode',
    );
  const held = pos.mode === 'live' ? await heldBySells(prisma, pos) : 0n;
  const free = pos.sizeMicros - held;
  const holding = { positionId: pos.id, size: pos.sizeMicros, held };
  if (body.size === undefined && free <= 0n) throw overFree(holding, pos.outcome, 'positionId');
  const size = body.size ?? n(free);
  if (toMicros(size) > free)
    throw held === 0n
      ? AppError.badRequest('size', `exceeds the position's ${n(pos.sizeMicros)} contracts`)
      : overFree(holding, pos.outcome);
  const request: ExecuteRequest = {
    marketId: pos.marketId,
    venue: pos.venue,
    side: 'sell',
    outcome: pos.outcome,
    size,
    orderType: body.orderType,
    limitPrice: body.limitPrice,
    mode: pos.mode,
  };
  return toMicros(size) === free ? { request, exactSizeMicros: free } : { request };
}
