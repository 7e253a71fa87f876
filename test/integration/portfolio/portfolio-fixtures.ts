import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../../../src/db/generated/client';
import type { OutcomeSide, Side, Venue } from '../../../src/venues/venue.models';
import type { SimulatedWorld } from '../../../src/venues';
import { activeMatchedEvent, PINNED_NOW } from '../../support/pinned-world';
import { MICROS_PER_USD, micros } from '../../support/money';

export interface MarketRef {
  venue: Venue;
  marketId: string;
  eventId: string;
}

/**
 * Markets of the pinned world with known books at the pinned clock:
 * A1/B1 and A2/B2 are the Democratic and Republican markets of one politics
 * event on venue_a/venue_b; C1 is a crypto market on venue_a.
 */
export function pinnedMarkets(world: SimulatedWorld): Record<'A1' | 'B1' | 'A2' | 'B2' | 'C1', MarketRef> {
  const politics = activeMatchedEvent(world);
  const crypto = world.coreEvents.find(
    (e) =>
      e.category !== politics.category &&
      e.venueEventIds.venue_a &&
      (e.closeTime?.getTime() ?? 0) > PINNED_NOW + 86_400_000,
  )!;
  const [dem, rep] = politics.markets;
  const ref = (venue: Venue, marketId: string | undefined, eventId: string): MarketRef => ({
    venue,
    marketId: marketId!,
    eventId,
  });
  return {
    A1: ref('venue_a', dem.venueMarketIds.venue_a, politics.id),
    B1: ref('venue_b', dem.venueMarketIds.venue_b, politics.id),
    A2: ref('venue_a', rep.venueMarketIds.venue_a, politics.id),
    B2: ref('venue_b', rep.venueMarketIds.venue_b, politics.id),
    C1: ref('venue_a', crypto.markets[0].venueMarketIds.venue_a, crypto.id),
  };
}

export interface PositionRow {
  id?: string;
  userId: string;
  market: MarketRef;
  outcome: OutcomeSide;
  status: 'open' | 'closed' | 'pending';
  size: string;
  costBasis: string;
  realizedPnl: string;
  fees: string;
  updatedAt?: Date;
}

/** A position row as execution writes it. */
export async function insertPosition(prisma: PrismaClient, p: PositionRow): Promise<string> {
  const id = p.id ?? randomUUID();
  await prisma.position.create({
    data: {
      id,
      userId: p.userId,
      venue: p.market.venue,
      marketId: `${p.market.venue}:${p.market.marketId}`,
      venueMarketId: p.market.marketId,
      coreEventId: p.market.eventId,
      outcome: p.outcome,
      status: p.status,
      sizeMicros: micros(p.size),
      costBasisMicros: micros(p.costBasis),
      realizedPnlMicros: micros(p.realizedPnl),
      feesMicros: micros(p.fees),
      closedAt: p.status === 'closed' ? (p.updatedAt ?? new Date(PINNED_NOW)) : null,
      ...(p.updatedAt && { updatedAt: p.updatedAt }),
    },
  });
  return id;
}

/** Open YES positions of `userId`, one on each of `markets` (catalog rows), each of `size` contracts at `costBasis`. */
export async function insertOpenPositions(
  prisma: PrismaClient,
  userId: string,
  markets: readonly { id: string; venue: Venue; venueMarketId: string; coreEventId: string }[],
  size: string,
  costBasis: string,
  mode: 'live' | 'simulation' = 'live',
): Promise<void> {
  await prisma.position.createMany({
    data: markets.map((m) => ({
      userId,
      mode,
      venue: m.venue,
      marketId: m.id,
      venueMarketId: m.venueMarketId,
      coreEventId: m.coreEventId,
      outcome: 'yes' as const,
      status: 'open' as const,
      sizeMicros: micros(size),
      costBasisMicros: micros(costBasis),
    })),
  });
}

export interface FillRow {
  price: string;
  size: string;
  fee: string;
  at: Date;
}

export interface OrderRow {
  id?: string;
  userId: string;
  market: MarketRef;
  outcome: OutcomeSide;
  side: Side;
  state: 'pending' | 'submitted' | 'partially_filled' | 'filled' | 'cancelled' | 'rejected' | 'failed';
  orderType?: 'market' | 'limit';
  /** Default `live`: the figures are the live account's. */
  mode?: 'simulation' | 'live';
  limitPrice?: string;
  requested: string;
  positionId?: string | null;
  failureReason?: string;
  createdAt: Date;
  fills?: FillRow[];
}

/** An order with its fills, totals derived from the fills as execution derives them. */
export async function insertOrder(prisma: PrismaClient, o: OrderRow): Promise<string> {
  const id = o.id ?? randomUUID();
  const fills = o.fills ?? [];
  const filled = fills.reduce((s, f) => s + micros(f.size), 0n);
  const notional = fills.reduce((s, f) => s + (micros(f.price) * micros(f.size) + 500_000n) / MICROS_PER_USD, 0n);
  const fees = fills.reduce((s, f) => s + micros(f.fee), 0n);
  await prisma.order.create({
    data: {
      id,
      userId: o.userId,
      venue: o.market.venue,
      marketId: `${o.market.venue}:${o.market.marketId}`,
      venueMarketId: o.market.marketId,
      coreEventId: o.market.eventId,
      outcome: o.outcome,
      side: o.side,
      orderType: o.orderType ?? 'market',
      mode: o.mode ?? 'live',
      limitPriceMicros: o.limitPrice ? micros(o.limitPrice) : null,
      requestedSizeMicros: micros(o.requested),
      filledSizeMicros: filled,
      avgPriceMicros: filled > 0n ? (notional * MICROS_PER_USD) / filled : null,
      notionalMicros: notional,
      feeMicros: fees,
      state: o.state,
      failureReason: o.failureReason ?? null,
      positionId: o.positionId ?? null,
      createdAt: o.createdAt,
      fills: {
        create: fills.map((f, i) => ({
          seq: i + 1,
          priceMicros: micros(f.price),
          sizeMicros: micros(f.size),
          feeMicros: micros(f.fee),
          filledAt: f.at,
        })),
      },
    },
  });
  return id;
}

export const at = (iso: string) => new Date(iso);
