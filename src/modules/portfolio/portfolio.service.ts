import { Prisma, type PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { OutcomeSide, Venue } from '../../venues/venue.models';
import { decimalToMicros } from '../../money';
import type { ExecutionMode } from '../execution/execution.limits';
import type { OrderState, PositionStatus } from './portfolio.limits';
import {
  positionView,
  toFillView,
  toOrderView,
  toPositionView,
  type FillView,
  type OffsetPage,
  type OrderView,
  type PositionView,
} from './portfolio.models';

interface WalletPositionRow {
  userId: string;
  walletAddress: string;
  venueMarketId: string;
  outcome: OutcomeSide;
  size: string;
  costBasis: string;
  realizedPnl: string;
  updatedAt: Date;
}

const exact = (text: string) => decimalToMicros(text) ?? 0n;

/**
 * Reads over the trading rows execution writes (Position, Order, Fill) and the
 * on-chain positions of the caller's linked wallets. "Linked wallets" are the
 * polygon wallets the user imported: their venue_a trades reach us through the
 * chain indexer (venue_a trader id = the lower-case address) and are rebuilt
 * into TraderPosition rows. Provisioned wallets are left out: trading from them
 * goes through the service and is already recorded as orders.
 */
export class PortfolioService {
  constructor(private readonly prisma: PrismaClient) {}

  /** Every service position of each user (all statuses), most recently changed first; one query. */
  async servicePositionsOf(userIds: readonly string[]): Promise<PositionView[][]> {
    const rows = await this.prisma.position.findMany({
      where: { userId: { in: [...userIds] } },
      orderBy: [{ updatedAt: 'desc' }, { id: 'asc' }],
    });
    return groupBy(userIds, rows.map(toPositionView), (p) => p.userId);
  }

  /** Every on-chain position of each user's linked wallets (flat ones too); one query. */
  async walletPositionsOf(
    userIds: readonly string[],
    market?: { venue: Venue; marketId: string },
  ): Promise<PositionView[][]> {
    // Only venue_a publishes trader identities; its trader ids are lower-case polygon addresses.
    if (market && market.venue !== 'venue_a') return userIds.map(() => []);
    const marketFilter = market ? Prisma.sql`AND tp."venueMarketId" = ${market.marketId}` : Prisma.empty;
    const rows = await this.prisma.$queryRaw<WalletPositionRow[]>`
      SELECT w."userId", w."address" AS "walletAddress", tp."venueMarketId", tp."outcome"::text AS "outcome",
             tp."size"::text AS "size", tp."costBasis"::text AS "costBasis", tp."realizedPnl"::text AS
      "realizedPnl", tp."updatedAt"
      FROM "Wallet" w
      JOIN "TraderPosition" tp ON tp."venue" = 'venue_a' AND tp."traderId" = lower(w."address")
      WHERE w."userId" = ANY(${[...userIds]}::text[]) AND w."chain" = 'polygon' AND w."kind" = 'imported'
      ${marketFilter}
      ORDER BY tp."updatedAt" DESC, tp."venueMarketId", tp."outcome"`;
    const views = rows.map((r) => {
      const size = exact(r.size);
      return positionView({
        id: `wallet:${r.walletAddress.toLowerCase()}:${r.venueMarketId}:${r.outcome}`,
        userId: r.userId,
        source: 'wallet',
        walletAddress: r.walletAddress,
        mode: 'live',
        venue: 'venue_a',
        marketId: r.venueMarketId,
        eventId: null,
        outcome: r.outcome,
        status: size > 0n ? 'open' : 'closed',
        size,
        costBasis: exact(r.costBasis),
        realizedPnl: exact(r.realizedPnl),
        fees: null,
        openedAt: null,
        closedAt: null,
        updatedAt: r.updatedAt,
      });
    });
    return groupBy(userIds, views, (p) => p.userId);
  }

  /** The caller's service positions, most recently changed first. */
  async positionsPage(
    userId: string,
    status: PositionStatus | undefined,
    limit: number,
    offset: number,
    mode: ExecutionMode = 'live',
  ): Promise<OffsetPage<PositionView>> {
    const where = { userId, mode, ...(status && { status }) };
    const [rows, total] = await Promise.all([
      this.prisma.position.findMany({
        where,
        orderBy: [{ updatedAt: 'desc' }, { id: 'asc' }],
        skip: offset,
        take: limit,
      }),
      this.prisma.position.count({ where }),
    ]);
    return { data: rows.map(toPositionView), limit, offset, total };
  }

  /** One of the caller's service positions; 404 when unknown or someone else's. */
  async position(userId: string, id: string): Promise<PositionView> {
    const row = await this.prisma.position.findFirst({ where: { id, userId } });
    if (!row) throw AppError.notFound(`position ${id}`);
    return toPositionView(row);
  }

  /**
   * The caller's positions in one venue market (both outcomes, any status): the service's, then the linked wallets'
   * (live only: the paper account has no wallets).
   */
  async positionsInMarket(
    userId: string,
    venue: Venue,
    marketId: string,
    mode: ExecutionMode = 'live',
  ): Promise<PositionView[]> {
    const [rows, [wallet]] = await Promise.all([
      this.prisma.position.findMany({
        where: { userId, venue, venueMarketId: marketId, mode },
        orderBy: [{ outcome: 'asc' }],
      }),
      mode === 'live' ? this.walletPositionsOf([userId], { venue, marketId }) : [[]],
    ]);
    return [...rows.map(toPositionView), ...(wallet ?? [])];
  }

  /** The caller's orders, newest first, optionally in one state. */
  async ordersPage(
    userId: string,
    state: OrderState | undefined,
    limit: number,
    offset: number,
    mode: ExecutionMode = 'live',
  ): Promise<OffsetPage<OrderView>> {
    const where = { userId, mode, ...(state && { state }) };
    const [rows, total] = await Promise.all([
      this.prisma.order.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], skip: offset, take: limit }),
      this.prisma.order.count({ where }),
    ]);
    return { data: rows.map(toOrderView), limit, offset, total };
  }

  /**
   * The orders of each position, newest first (one query): those linked to it
   * by id, and the owner's other orders on the same market outcome (a position
   * row is the one holding of its market outcome, reused after a close).
   */
  async ordersOfPositions(positions: readonly PositionView[]): Promise<OrderView[][]> {
    const mine = positions.filter((p) => p.source === 'service');
    if (mine.length === 0) return positions.map(() => []);
    const rows = await this.prisma.order.findMany({
      where: {
        OR: [
          { positionId: { in: mine.map((p) => p.id) } },
          ...mine.map((p) => ({
            userId: p.userId,
            venue: p.venue,
            venueMarketId: p.marketId,
            outcome: p.outcome,
            mode: p.mode,
          })),
        ],
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    });
    const orders = rows.map(toOrderView);
    return positions.map((p) =>
      p.source !== 'service'
        ? []
        : orders.filter(
            (o) =>
              o.positionId === p.id ||
              (o.userId === p.userId &&
                o.venue === p.venue &&
                o.marketId === p.marketId &&
                o.outcome === p.outcome &&
                o.mode === p.mode),
          ),
    );
  }

  /** The fills of each order, in sequence (one query). */
  async fillsOfOrders(orderIds: readonly string[]): Promise<FillView[][]> {
    const rows = await this.prisma.fill.findMany({
      where: { orderId: { in: [...orderIds] } },
      orderBy: [{ orderId: 'asc' }, { seq: 'asc' }],
    });
    return groupBy(orderIds, rows.map(toFillView), (f) => f.orderId);
  }
}

function groupBy<T>(keys: readonly string[], items: readonly T[], keyOf: (item: T) => string): T[][] {
  const by = new Map<string, T[]>();
  for (const item of items) {
    const k = keyOf(item);
    const list = by.get(k);
    if (list) list.push(item);
    else by.set(k, [item]);
  }
  return keys.map((k) => by.get(k) ?? []);
}
