import type { PrismaClient } from '../../../db/generated/client';
import { microsToNumber } from '../../../money';
import { exactMicros } from '../traders/trader-stats.sql';

/** The user's wallets as venue_a traders: their trader stats summed. */
export interface WalletTradingView {
  totalVolume: number;
  totalTrades: number;
  winCount: number;
  lossCount: number;
  realizedPnl: number;
  /** As marked at the last leaderboard refresh. */
  unrealizedPnl: number;
  totalPnl: number;
  firstTradeAt: Date | null;
  lastTradeAt: Date | null;
}

/**
 * Live orders the user placed through the service that filled (wholly or partly). Paper
 * (`simulation`) orders are the user's practice and never count in a public figure.
 */
export interface OrderTradingView {
  filledOrders: number;
  /** USD notional of their fills. */
  volume: number;
}

export interface UserStatsView {
  userId: string;
  /** When the user signed up (`/auth/setup`); null when the user never did. */
  joinedAt: Date | null;
  /** The user's verified polygon wallets: their venue_a trader identities. */
  wallets: number;
  /** Of those, the ones with public trades. */
  rankedWallets: number;
  /** Follows of the user's wallets as traders. */
  followers: number;
  /** Traders the user follows. */
  following: number;
  comments: number;
  onChain: WalletTradingView;
  orders: OrderTradingView;
  /**
   * On-chain volume plus live order volume, live venue_a orders excepted: those
   * settle from the user's wallet and reach the on-chain figures once indexed.
   */
  totalVolume: number;
  /** Trades counted the same way. */
  totalTrades: number;
}

interface WalletRow {
  wallets: number;
  ranked: number;
  followers: number;
  volume: string;
  trades: number;
  wins: number;
  losses: number;
  realized: string;
  unrealized: string;
  total: string;
  first: Date | null;
  last: Date | null;
}

interface UserRow {
  joinedAt: Date | null;
  following: number;
  comments: number;
  filled: number;
  volume: string;
  offChainFilled: number;
  offChainVolume: string;
}

const money = (text: string) => microsToNumber(exactMicros(text));

/**
 * Public stats of a user: their verified wallets' trader stats combined with the
 * live orders they placed here, and a few social counts; paper orders and
 * unverified imports never count. Two statements, aggregates only.
 * An unknown user has zeros (and `joinedAt` null), not a 404: user ids are
 * bearer-token subjects that may act before signing up.
 */
export class UserStatsService {
  constructor(private readonly prisma: PrismaClient) {}

  async stats(userId: string): Promise<UserStatsView> {
    const [[w], [u]] = await Promise.all([
      this.prisma.$queryRaw<WalletRow[]>`
        WITH mine AS (
          SELECT DISTINCT lower("address") AS "traderId" FROM "Wallet"
          WHERE "userId" = ${userId} AND "chain" = 'polygon' AND "verification" = 'verified'
        )
        SELECT (SELECT count(*)::int FROM mine) AS "wallets",
               count(s."traderId")::int AS "ranked",
               (SELECT count(*)::int FROM "Follow" f WHERE f."venue" = 'venue_a' AND f."traderId" IN (SELECT
        "traderId" FROM mine)) AS "followers",
               coalesce(sum(s."totalVolume"), 0)::text AS "volume",
               coalesce(sum(s."totalTrades"), 0)::int AS "trades",
               coalesce(sum(s."winCount"), 0)::int AS "wins",
               coalesce(sum(s."lossCount"), 0)::int AS "losses",
               coalesce(sum(s."realizedPnl"), 0)::text AS "realized",
               coalesce(sum(s."unrealizedPnl"), 0)::text AS "unrealized",
               coalesce(sum(s."totalPnl"), 0)::text AS "total",
               min(s."firstTradeAt") AS "first",
               max(s."lastTradeAt") AS "last"
        FROM "TraderStat" s
        WHERE s."venue" = 'venue_a' AND s."traderId" IN (SELECT "traderId" FROM mine)`,
      this.prisma.$queryRaw<UserRow[]>`
        SELECT (SELECT "createdAt" FROM "User" WHERE "id" = ${userId}) AS "joinedAt",
               (SELECT count(*)::int FROM "Follow" WHERE "userId" = ${userId}) AS "following",
               (SELECT count(*)::int FROM "Comment" WHERE "authorId" = ${userId}) AS "comments",
               count(*)::int AS "filled",
               coalesce(sum(o."notionalMicros"), 0)::text AS "volume",
               (count(*) FILTER (WHERE o."venue" <> 'venue_a'))::int AS "offChainFilled",
               coalesce(sum(o."notionalMicros") FILTER (WHERE o."venue" <> 'venue_a'), 0)::text AS "offChainVolume"
        FROM "Order" o
        WHERE o."userId" = ${userId} AND o."mode" = 'live' AND o."filledSizeMicros" > 0`,
    ]);
    const onChainVolume = exactMicros(w.volume);
    // Order figures are integer micro-units already.
    const orderVolume = BigInt(u.volume);
    const offChainVolume = BigInt(u.offChainVolume);
    return {
      userId,
      joinedAt: u.joinedAt,
      wallets: w.wallets,
      rankedWallets: w.ranked,
      followers: w.followers,
      following: u.following,
      comments: u.comments,
      onChain: {
        totalVolume: microsToNumber(onChainVolume),
        totalTrades: w.trades,
        winCount: w.wins,
        lossCount: w.losses,
        realizedPnl: money(w.realized),
        unrealizedPnl: money(w.unrealized),
        totalPnl: money(w.total),
        firstTradeAt: w.first,
        lastTradeAt: w.last,
      },
      orders: { filledOrders: u.filled, volume: microsToNumber(orderVolume) },
      totalVolume: microsToNumber(onChainVolume + offChainVolume),
      totalTrades: w.trades + u.offChainFilled,
    };
  }
}
