import type { PrismaClient } from '../../../db/generated/client';
import { decimalToNumber } from '../../events/events.models';
import { COMMENT_VIEW_SELECT, type CommentView } from '../../comments/comments.service';
import type { OutcomeSide, Venue } from '../../../venues/venue.models';
import { round6 } from '../../../money/money';

export interface MarketRef {
  venue: Venue;
  marketId: string;
}

export interface FriendHolding {
  traderId: string;
  outcome: OutcomeSide;
  size: number;
  avgPrice: number | null;
}

export interface FriendsTradedMarket extends MarketRef {
  traders: FriendHolding[];
}

/** Discovery reads of the social surface. */
export class DiscoveryService {
  constructor(private readonly prisma: PrismaClient) {}

  /** Comments with the most recent engagement: top-level, last week, by replies and likes. */
  async activeComments(limit: number, now = Date.now()): Promise<CommentView[]> {
    return this.prisma.comment.findMany({
      where: { parentId: null, createdAt: { gte: new Date(now - 7 * 86_400_000) } },
      orderBy: [{ replyCount: 'desc' }, { likeCount: 'desc' }, { createdAt: 'desc' }, { id: 'asc' }],
      take: limit,
      select: COMMENT_VIEW_SELECT,
    });
  }

  /**
   * For each market, the traders the user follows who hold a position in it
   * (from their public trades), largest first. One query for all markets.
   */
  async friendsTraded(userId: string, markets: readonly MarketRef[]): Promise<FriendsTradedMarket[]> {
    const follows = await this.prisma.follow.findMany({ where: { userId }, select: { venue: true, traderId: true } });
    const followed = new Set(follows.map((f) => `${f.venue}|${f.traderId}`));
    const positions =
      follows.length === 0
        ? []
        : await this.prisma.traderPosition.findMany({
            where: {
              size: { gt: 0 },
              OR: markets.map((m) => ({
                venue: m.venue,
                venueMarketId: m.marketId,
                traderId: { in: follows.filter((f) => f.venue === m.venue).map((f) => f.traderId) },
              })),
            },
          });
    return markets.map((m) => ({
      ...m,
      traders: positions
        .filter(
          (p) => p.venue === m.venue && p.venueMarketId === m.marketId && followed.has(`${p.venue}|${p.traderId}`),
        )
        .map((p) => {
          const size = decimalToNumber(p.size) ?? 0;
          const basis = decimalToNumber(p.costBasis) ?? 0;
          return {
            traderId: p.traderId,
            outcome: p.outcome,
            size,
            avgPrice: size > 0 ? round6(basis / size) : null,
          };
        })
        .sort((a, b) => b.size - a.size || a.traderId.localeCompare(b.traderId)),
    }));
  }
}
