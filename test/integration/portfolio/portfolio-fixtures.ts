import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../../../src/db/generated/client';
import type { OutcomeSide, Side, Venue } from '../../../src/venues/venue.models';
import type { SimulatedWorld } from '../../../src/venues';
import { activeMatchedEvent, PINNED_NOW } from '../../utils/pinned-world';
import { http, type TestApp } from '../../utils/app';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';

/** Exact micro-units of a decimal string ("40.5" → 40500000n). */
export function M(usd: string): bigint {
  const neg = usd.startsWith('-');
  const [i, f = ''] = usd.replace('-', '').split('.');
  const v = BigInt(i!) * 1_000_000n + BigInt(f.padEnd(6, '0'));
  return neg ? -v : v;
}

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
    A1: ref('venue_a', dem!.venueMarketIds.venue_a, politics.id),
    B1: ref('venue_b', dem!.venueMarketIds.venue_b, politics.id),
    A2: ref('venue_a', rep!.venueMarketIds.venue_a, politics.id),
    B2: ref('venue_b', rep!.venueMarketIds.venue_b, politics.id),
    C1: ref('venue_a', crypto.markets[0]!.venueMarketIds.venue_a, crypto.id),
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
      sizeMicros: M(p.size),
      costBasisMicros: M(p.costBasis),
      realizedPnlMicros: M(p.realizedPnl),
      feesMicros: M(p.fees),
      closedAt: p.status === 'closed' ? (p.updatedAt ?? new Date(PINNED_NOW)) : null,
      ...(p.updatedAt && { updatedAt: p.updatedAt }),
    },
  });
  return id;
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
  const filled = fills.reduce((s, f) => s + M(f.size), 0n);
  const notional = fills.reduce((s, f) => s + (M(f.price) * M(f.size) + 500_000n) / 1_000_000n, 0n);
  const fees = fills.reduce((s, f) => s + M(f.fee), 0n);
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
      mode: o.mode ?? 'simulation',
      limitPriceMicros: o.limitPrice ? M(o.limitPrice) : null,
      requestedSizeMicros: M(o.requested),
      filledSizeMicros: filled,
      avgPriceMicros: filled > 0n ? (notional * 1_000_000n) / filled : null,
      notionalMicros: notional,
      feeMicros: fees,
      state: o.state,
      failureReason: o.failureReason ?? null,
      positionId: o.positionId ?? null,
      createdAt: o.createdAt,
      fills: {
        create: fills.map((f, i) => ({
          seq: i + 1,
          priceMicros: M(f.price),
          sizeMicros: M(f.size),
          feeMicros: M(f.fee),
          filledAt: f.at,
        })),
      },
    },
  });
  return id;
}

/** Credits a user's ledger balance (a deposit). */
export async function deposit(app: TestApp, userId: string, usd: string): Promise<void> {
  await app.services.get(LedgerService).postAll([
    {
      userId,
      kind: 'deposit',
      available: M(usd),
      held: 0n,
      reference: 'test',
      idempotencyKey: `deposit:${userId}:${randomUUID()}`,
    },
  ]);
}

/** A bearer GET helper. */
export async function get(app: TestApp, sub: string, path: string) {
  return http(`${app.url}${path}`, { headers: { authorization: `Bearer ${await app.token(sub)}` } });
}

export const at = (iso: string) => new Date(iso);
