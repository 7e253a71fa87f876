import type { Prisma, PrismaClient, TraderStat } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import { decimalToNumber } from '../events/events.models';
import type { OutcomeSide, Side, Venue } from '../../venues/venue.types';
import { normalizeTraderId } from './trader-id';

export const LEADERBOARD_SORTS = ['total_volume', 'total_pnl', 'win_count', 'total_trades'] as const;
export type LeaderboardSort = (typeof LEADERBOARD_SORTS)[number];

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

export interface LeaderboardPage {
  data: LeaderboardRow[];
  sortBy: LeaderboardSort;
  limit: number;
  offset: number;
  total: number;
}

export interface TraderProfile extends TraderStatsView {
  followers: number;
  /** Rank by total volume on the trader's venue. */
  volumeRank: number;
}

export interface TraderTradeView {
  id: string;
  venue: Venue;
  marketId: string;
  side: Side;
  outcome: OutcomeSide;
  price: number;
  size: number;
  filledAt: Date;
}

export interface TraderTradePage {
  data: TraderTradeView[];
  limit: number;
  offset: number;
  total: number;
}

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

/** Rankings and profiles of traders, read from the stats the ingestion keeps. */
export class LeaderboardService {
  constructor(private readonly prisma: PrismaClient) {}

  async leaderboard(sortBy: LeaderboardSort, limit: number, offset: number, venue?: Venue): Promise<LeaderboardPage> {
    const where: Prisma.TraderStatWhereInput = venue ? { venue } : {};
    const col = COLUMN[sortBy];
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.traderStat.findMany({
        where,
        orderBy: [{ [col]: 'desc' }, { venue: 'asc' }, { traderId: 'asc' }],
        skip: offset,
        take: limit,
      }),
      this.prisma.traderStat.count({ where }),
    ]);
    return { data: rows.map((r, i) => ({ ...toView(r), rank: offset + i + 1 })), sortBy, limit, offset, total };
  }

  async profile(venue: Venue, rawTraderId: string): Promise<TraderProfile> {
    const traderId = normalizeTraderId(venue, rawTraderId);
    const stat = await this.prisma.traderStat.findUnique({ where: { venue_traderId: { venue, traderId } } });
    if (!stat) throw AppError.notFound(`trader ${venue}/${traderId}`);
    const [followers, ahead] = await this.prisma.$transaction([
      this.prisma.follow.count({ where: { venue, traderId } }),
      this.prisma.traderStat.count({ where: { venue, totalVolume: { gt: stat.totalVolume } } }),
    ]);
    return { ...toView(stat), followers, volumeRank: ahead + 1 };
  }

  async trades(venue: Venue, rawTraderId: string, limit: number, offset: number): Promise<TraderTradePage> {
    const traderId = normalizeTraderId(venue, rawTraderId);
    const where = { venue, venueTraderId: traderId };
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.trade.findMany({ where, orderBy: [{ filledAt: 'desc' }, { id: 'asc' }], skip: offset, take: limit }),
      this.prisma.trade.count({ where }),
    ]);
    const data = rows.map((t) => ({
      id: `${t.venue}:${t.venueTradeId}`,
      venue: t.venue,
      marketId: t.venueMarketId,
      side: t.side,
      outcome: t.outcome,
      price: decimalToNumber(t.price) ?? 0,
      size: decimalToNumber(t.size) ?? 0,
      filledAt: t.filledAt,
    }));
    return { data, limit, offset, total };
  }
}
