import type { Prisma, PrismaClient, Trade, TraderStat } from '../../../db/generated/client';
import { readOffsetPage, type OffsetPage } from '../../../db/offset-page';
import { AppError } from '../../../errors/app-error';
import { decimalToNumber } from '../../events/events.models';
import { VENUES, type Venue } from '../../../venues/venue.models';
import { normalizeTraderId, traderIdOrNull } from './trader-id';
import { userTraderIds } from './user-traders';
import { LeaderboardSort } from './traders.limits';
import { tradeFigures, type TradeFigures } from '../../trades/trades.models';

export interface TraderStatsView {
  venue: Venue;
  traderId: string;
  totalVolume: number;
  totalPnl: number;
  realizedPnl: number;
  unrealizedPnl: number;
  winCount: number;
  lossCount: number;
  totalTrades: number;
  firstTradeAt: Date;
  lastTradeAt: Date;
}

export interface LeaderboardRow extends TraderStatsView {
  rank: number;
}

export interface LeaderboardPage extends OffsetPage<LeaderboardRow> {
  sortBy: LeaderboardSort;
}

export interface TraderProfile extends TraderStatsView {
  followers: number;
  /**
   * Rank by total volume on the trader's venue: its row's rank on the venue's volume leaderboard (ties by trader
   * id).
   */
  volumeRank: number;
}

/** The caller's place on the leaderboard. */
export interface LeaderboardMeView {
  sortBy: LeaderboardSort;
  /** Traders on the board. */
  total: number;
  /** The caller's venue_a trader ids: their verified polygon wallet addresses (lower case). */
  traderIds: string[];
  /** The best rank among the caller's traders; null when none of them has traded. */
  rank: number | null;
  /** The caller's best-ranked trader. */
  me: LeaderboardRow | null;
  /** The board from `rank - neighbours` to `rank + neighbours` (the caller's row included); empty when unranked. */
  neighbours: LeaderboardRow[];
}

/** A public trade of a trader's history (or the trade a copytrade copied). */
export interface TraderTradeView extends TradeFigures {
  filledAt: Date;
}

/** A stored public trade as a trader's history shows it. */
export function toTraderTradeView(t: Trade): TraderTradeView {
  return { ...tradeFigures(t), filledAt: t.filledAt };
}

export type TraderTradePage = OffsetPage<TraderTradeView>;

const COLUMN: Record<LeaderboardSort, 'totalVolume' | 'totalPnl' | 'winCount' | 'totalTrades'> = {
  total_volume: 'totalVolume',
  total_pnl: 'totalPnl',
  win_count: 'winCount',
  total_trades: 'totalTrades',
};

function toView(s: TraderStat): TraderStatsView {
  return {
    venue: s.venue,
    traderId: s.traderId,
    totalVolume: decimalToNumber(s.totalVolume) ?? 0,
    totalPnl: decimalToNumber(s.totalPnl) ?? 0,
    realizedPnl: decimalToNumber(s.realizedPnl) ?? 0,
    unrealizedPnl: decimalToNumber(s.unrealizedPnl) ?? 0,
    winCount: s.winCount,
    lossCount: s.lossCount,
    totalTrades: s.totalTrades,
    firstTradeAt: s.firstTradeAt,
    lastTradeAt: s.lastTradeAt,
  };
}

/** The leaderboard's order: the figure descending, then venue and trader id ascending. */
function boardOrder(a: TraderStat, b: TraderStat, col: (typeof COLUMN)[LeaderboardSort]): number {
  const x = a[col];
  const y = b[col];
  const c = typeof x === 'number' && typeof y === 'number' ? y - x : (y as Prisma.Decimal).comparedTo(x);
  if (c !== 0) return c;
  // Venues sort in the enum's declaration order, as the database sorts them.
  if (a.venue !== b.venue) return VENUES.indexOf(a.venue) - VENUES.indexOf(b.venue);
  return a.traderId < b.traderId ? -1 : a.traderId > b.traderId ? 1 : 0;
}

/** Rankings and profiles of traders, read from the stats the ingestion keeps. */
export class LeaderboardService {
  constructor(private readonly prisma: PrismaClient) {}

  async leaderboard(sortBy: LeaderboardSort, limit: number, offset: number, venue?: Venue): Promise<LeaderboardPage> {
    const where: Prisma.TraderStatWhereInput = venue ? { venue } : {};
    const col = COLUMN[sortBy];
    const orderBy: Prisma.TraderStatOrderByWithRelationInput[] = [
      { [col]: 'desc' },
      { venue: 'asc' },
      { traderId: 'asc' },
    ];
    const page = await readOffsetPage(
      this.prisma,
      { limit, offset },
      (window) => [
        this.prisma.traderStat.findMany({ where, orderBy, ...window }),
        this.prisma.traderStat.count({ where }),
      ],
      (r, i) => ({ ...toView(r), rank: offset + i + 1 }),
    );
    return { ...page, sortBy };
  }

  /**
   * The caller's rank and neighbours on the board ordered by `sortBy` (the
   * order of {@link leaderboard} without a venue filter). The caller's traders
   * are the venue_a wallets equal to their verified polygon addresses; with
   * several ranked, the best-ranked one stands for the caller. Five
   * statements, whatever the board's size.
   */
  async me(userId: string, sortBy: LeaderboardSort, neighbours: number): Promise<LeaderboardMeView> {
    const traderIds = await userTraderIds(this.prisma, userId);
    const col = COLUMN[sortBy];
    const [mine, total] = await Promise.all([
      this.prisma.traderStat.findMany({ where: { venue: 'venue_a', traderId: { in: traderIds } } }),
      this.prisma.traderStat.count(),
    ]);
    const best = mine.sort((a, b) => boardOrder(a, b, col))[0];
    if (!best) return { sortBy, total, traderIds, rank: null, me: null, neighbours: [] };
    const v = best[col];
    const ahead = await this.prisma.traderStat.count({
      where: {
        OR: [
          { [col]: { gt: v } },
          { [col]: v, venue: { in: VENUES.slice(0, VENUES.indexOf(best.venue)) } },
          { [col]: v, venue: best.venue, traderId: { lt: best.traderId } },
        ],
      },
    });
    const rank = ahead + 1;
    const skip = Math.max(0, ahead - neighbours);
    const rows = await this.prisma.traderStat.findMany({
      orderBy: [{ [col]: 'desc' }, { venue: 'asc' }, { traderId: 'asc' }],
      skip,
      take: ahead - skip + 1 + neighbours,
    });
    const around = rows.map((r, i) => ({ ...toView(r), rank: skip + i + 1 }));
    return { sortBy, total, traderIds, rank, me: { ...toView(best), rank }, neighbours: around };
  }

  /** A trader's profile; 404 for an id no trader of the venue can have (the interface lists only 200 and 404). */
  async profile(venue: Venue, rawTraderId: string): Promise<TraderProfile> {
    const traderId = traderIdOrNull(venue, rawTraderId);
    if (traderId === null) throw AppError.notFound(`trader ${venue}/<malformed id>`);
    const stat = await this.prisma.traderStat.findUnique({ where: { venue_traderId: { venue, traderId } } });
    if (!stat) throw AppError.notFound(`trader ${venue}/${traderId}`);
    // The rank `GET /api/leaderboard?venue=…&sort_by=total_volume` shows: ties in volume go by trader id.
    const [followers, ahead] = await this.prisma.$transaction([
      this.prisma.follow.count({ where: { venue, traderId } }),
      this.prisma.traderStat.count({
        where: {
          venue,
          OR: [
            { totalVolume: { gt: stat.totalVolume } },
            { totalVolume: stat.totalVolume, traderId: { lt: traderId } },
          ],
        },
      }),
    ]);
    return { ...toView(stat), followers, volumeRank: ahead + 1 };
  }

  async trades(venue: Venue, rawTraderId: string, limit: number, offset: number): Promise<TraderTradePage> {
    const traderId = normalizeTraderId(venue, rawTraderId);
    const where = { venue, venueTraderId: traderId };
    return readOffsetPage(
      this.prisma,
      { limit, offset },
      (window) => [
        this.prisma.trade.findMany({ where, orderBy: [{ filledAt: 'desc' }, { id: 'asc' }], ...window }),
        this.prisma.trade.count({ where }),
      ],
      toTraderTradeView,
    );
  }
}
