import { Prisma, type PrismaClient } from '../../db/generated/client';
import type { OutcomeSide, Side, Venue } from '../../venues/venue.models';
import { microsToNumber, mulMicros } from '../../money';
import { weekStart } from './portfolio-figures';
import type { ExecutionMode } from '../execution/execution.limits';
import type { HoldingSource } from './portfolio.limits';
import type { OffsetPage, TradeView } from './portfolio.models';

interface TradeRow {
  id: string;
  source: HoldingSource;
  venue: Venue;
  venueMarketId: string;
  eventId: string | null;
  marketTitle: string | null;
  outcome: OutcomeSide;
  side: Side;
  priceMicros: bigint;
  sizeMicros: bigint;
  feeMicros: bigint | null;
  filledAt: Date;
  orderId: string | null;
  mode: 'simulation' | 'live' | null;
  walletAddress: string | null;
}

/** The caller's rank by the volume they traded through the service this week. */
export interface WeeklyRankView {
  /** Monday 00:00 UTC of the current ISO week, and the end of the week. */
  weekStart: Date;
  weekEnd: Date;
  metric: 'volume';
  /** USD traded (fill notional) this week. */
  volume: number;
  /** Fills this week. */
  trades: number;
  /** 1 = most volume; ties share a rank. Null when the caller has not traded this week. */
  rank: number | null;
  /** Users who traded this week. */
  participants: number;
}

/**
 * The caller's fills merged with the on-chain fills of their linked (imported
 * polygon) wallets, in one SQL statement, so offset pages stay exact across
 * both sources; and the weekly volume rank among the service's users.
 */
export class TradeHistoryService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Newest first (fills at one instant: the later recorded first), with the total over both sources. The paper
   * account (`simulation`) has its simulated fills only.
   */
  async history(
    userId: string,
    limit: number,
    offset: number,
    mode: ExecutionMode = 'live',
  ): Promise<OffsetPage<TradeView>> {
    const [data, total] = await Promise.all([this.trades(userId, limit, offset, mode), this.count(userId, mode)]);
    return { data, limit, offset, total };
  }

  /**
   * The newest trades without a total (the overview's recent activity). The
   * market's title and event come from the same statement (joined to the page
   * only), so a page costs one round trip whatever markets it touches.
   */
  async trades(userId: string, limit: number, offset = 0, mode: ExecutionMode = 'live'): Promise<TradeView[]> {
    const rows = await this.prisma.$queryRaw<TradeRow[]>`
      SELECT p.*, COALESCE(p."coreEventId", m."coreEventId") AS "eventId", m."title" AS "marketTitle" FROM (
        SELECT h.* FROM (
          SELECT f."id", 'service' AS "source", o."venue"::text AS "venue", o."venueMarketId", o."coreEventId",
                 o."outcome"::text AS "outcome", o."side"::text AS "side", f."priceMicros", f."sizeMicros",
      f."feeMicros",
                 f."filledAt", o."id" AS "orderId", o."mode"::text AS "mode", NULL::text AS "walletAddress",
                 o."createdAt" AS "recordedAt", f."seq"
          FROM "Fill" f JOIN "Order" o ON o."id" = f."orderId"
          WHERE o."userId" = ${userId} AND o."mode" = ${mode}::"ExecutionMode"
          UNION ALL
          SELECT t."id", 'wallet', t."venue"::text, t."venueMarketId", NULL, t."outcome"::text, t."side"::text,
                 (t."price" * 1000000)::bigint, (t."size" * 1000000)::bigint, NULL::bigint, t."filledAt", NULL,
      NULL, w."address",
                 t."ingestedAt", 0
          FROM "Trade" t JOIN "Wallet" w ON t."venueTraderId" = lower(w."address")
          WHERE t."venue" = 'venue_a' AND ${linkedWallets(userId, mode)}
        ) h
        ORDER BY h."filledAt" DESC, h."recordedAt" DESC, h."seq" DESC, h."id" DESC
        LIMIT ${limit} OFFSET ${offset}
      ) p
      LEFT JOIN "Market" m ON m."venue" = p."venue"::"Venue" AND m."venueMarketId" = p."venueMarketId"
      ORDER BY p."filledAt" DESC, p."recordedAt" DESC, p."seq" DESC, p."id" DESC`;
    return rows.map(toTradeView);
  }

  private async count(userId: string, mode: ExecutionMode): Promise<number> {
    const [r] = await this.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT (SELECT COUNT(*) FROM "Fill" f JOIN "Order" o ON o."id" = f."orderId"
              WHERE o."userId" = ${userId} AND o."mode" = ${mode}::"ExecutionMode")
           + (SELECT COUNT(*) FROM "Trade" t JOIN "Wallet" w ON t."venueTraderId" = lower(w."address")
              WHERE t."venue" = 'venue_a' AND ${linkedWallets(userId, mode)}) AS "n"`;
    return Number(r?.n ?? 0n);
  }

  /**
   * Rank by fill notional since Monday 00:00 UTC among users who traded through
   * the service this week (competition ranking: 1 + users with strictly more).
   * On-chain wallet activity is not ranked: other users' wallets are not all known.
   */
  async weeklyRank(userId: string, mode: ExecutionMode = 'live'): Promise<WeeklyRankView> {
    const start = weekStart(new Date(this.now()));
    const [r] = await this.prisma.$queryRaw<
      { participants: number; volume: bigint | null; trades: number | null; ahead: number }[]
    >`
      WITH weekly AS (
        SELECT o."userId", ROUND(SUM(f."priceMicros"::numeric * f."sizeMicros") / 1000000)::bigint AS "volume",
      COUNT(*)::int AS "trades"
        FROM "Fill" f JOIN "Order" o ON o."id" = f."orderId"
        WHERE f."filledAt" >= ${start.toISOString()}::timestamp(3) AND o."mode" = ${mode}::"ExecutionMode"
        GROUP BY o."userId"
      ), me AS (SELECT "volume", "trades" FROM weekly WHERE "userId" = ${userId})
      SELECT (SELECT COUNT(*) FROM weekly)::int AS "participants",
             (SELECT "volume" FROM me) AS "volume",
             (SELECT "trades" FROM me) AS "trades",
             (SELECT COUNT(*) FROM weekly WHERE "volume" > (SELECT "volume" FROM me))::int AS "ahead"`;
    const traded = r?.volume !== null && r?.volume !== undefined;
    return {
      weekStart: start,
      weekEnd: new Date(start.getTime() + 7 * 86_400_000),
      metric: 'volume',
      volume: traded ? microsToNumber(r.volume!) : 0,
      trades: r?.trades ?? 0,
      rank: traded ? r.ahead + 1 : null,
      participants: r?.participants ?? 0,
    };
  }
}

/** The account's linked wallets, for a query joining `"Wallet" w`: none for the paper account. */
function linkedWallets(userId: string, mode: ExecutionMode): Prisma.Sql {
  if (mode === 'simulation') return Prisma.sql`FALSE`;
  return Prisma.sql`w."userId" = ${userId} AND w."chain" = 'polygon' AND w."kind" = 'imported'`;
}

function toTradeView(r: TradeRow): TradeView {
  return {
    id: r.source === 'service' ? `fill:${r.id}` : `trade:${r.id}`,
    source: r.source,
    venue: r.venue,
    marketId: r.venueMarketId,
    eventId: r.eventId,
    marketTitle: r.marketTitle,
    outcome: r.outcome,
    side: r.side,
    price: microsToNumber(r.priceMicros),
    size: microsToNumber(r.sizeMicros),
    notional: microsToNumber(mulMicros(r.priceMicros, r.sizeMicros)),
    fee: r.feeMicros === null ? null : microsToNumber(r.feeMicros),
    filledAt: r.filledAt,
    orderId: r.orderId,
    mode: r.mode,
    walletAddress: r.walletAddress,
  };
}
