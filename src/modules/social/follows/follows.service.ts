import type { Prisma, PrismaClient } from '../../../db/generated/client';
import { readOffsetPage, type OffsetPage } from '../../../db/offset-page';
import type { PublicTrade, Venue } from '../../../venues/venue.models';
import type { NewNotification } from '../../notifications/notifications.service';
import { normalizeTraderId } from '../traders/trader-id';

export interface FollowView {
  venue: Venue;
  traderId: string;
  createdAt: Date;
}

export type FollowPage = OffsetPage<FollowView>;

export interface UnfollowResult {
  venue: Venue;
  traderId: string;
  /** False when the caller did not follow the trader (unfollowing is idempotent). */
  removed: boolean;
}

/** Who follows whom. Following again returns the existing follow. */
export class FollowsService {
  constructor(private readonly prisma: PrismaClient) {}

  async follow(userId: string, venue: Venue, rawTraderId: string): Promise<FollowView> {
    const traderId = normalizeTraderId(venue, rawTraderId);
    await this.prisma.follow.createMany({ data: [{ userId, venue, traderId }], skipDuplicates: true });
    return this.prisma.follow.findUniqueOrThrow({
      where: { userId_venue_traderId: { userId, venue, traderId } },
      select: { venue: true, traderId: true, createdAt: true },
    });
  }

  async unfollow(userId: string, venue: Venue, rawTraderId: string): Promise<UnfollowResult> {
    const traderId = normalizeTraderId(venue, rawTraderId);
    const { count } = await this.prisma.follow.deleteMany({ where: { userId, venue, traderId } });
    return { venue, traderId, removed: count > 0 };
  }

  /**
   * One notification per follower of each trader in the batch (venue_b trades
   * carry no trader): the followers of every trader in one statement.
   */
  async tradeNotifications(trades: readonly PublicTrade[]): Promise<NewNotification[]> {
    const withTrader = trades.filter((t) => t.venueTraderId !== null);
    if (withTrader.length === 0) return [];
    const pairs = new Map<string, { venue: Venue; traderId: string }>();
    for (const t of withTrader)
      pairs.set(`${t.venue}|${t.venueTraderId}`, { venue: t.venue, traderId: t.venueTraderId! });
    const keys = [...pairs.values()];
    const followers = await this.prisma.$queryRaw<{ userId: string; venue: Venue; traderId: string }[]>`
      SELECT f."userId", f."venue"::text AS "venue", f."traderId"
      FROM "Follow" f
      JOIN unnest(${keys.map((k) => k.venue)}::text[], ${keys.map((k) => k.traderId)}::text[]) AS k(venue, trader)
        ON f."venue" = k.venue::"Venue" AND f."traderId" = k.trader
      ORDER BY f."createdAt", f."userId"`;
    if (followers.length === 0) return [];
    const byTrader = new Map<string, string[]>();
    for (const f of followers)
      byTrader.set(`${f.venue}|${f.traderId}`, [...(byTrader.get(`${f.venue}|${f.traderId}`) ?? []), f.userId]);
    return withTrader.flatMap((t) =>
      (byTrader.get(`${t.venue}|${t.venueTraderId}`) ?? []).map((userId) => ({
        userId,
        kind: 'followed_trade' as const,
        title: `${shortId(t.venueTraderId!)} ${t.side === 'buy' ? 'bought' : 'sold'} ${t.outcome.toUpperCase()}`,
        body: `${t.size} at ${t.price}`,
        data: {
          venue: t.venue,
          marketId: t.venueMarketId,
          traderId: t.venueTraderId!,
          tradeId: `${t.venue}:${t.venueTradeId}`,
        },
      })),
    );
  }

  async list(userId: string, limit: number, offset: number): Promise<FollowPage> {
    const where = { userId };
    const select = { venue: true, traderId: true, createdAt: true } as const;
    const orderBy = [{ createdAt: 'desc' }, { traderId: 'asc' }] satisfies Prisma.FollowOrderByWithRelationInput[];
    return readOffsetPage(
      this.prisma,
      { limit, offset },
      (window) => [
        this.prisma.follow.findMany({ where, orderBy, select, ...window }),
        this.prisma.follow.count({ where }),
      ],
      (f) => f,
    );
  }
}

function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 6)}…${id.slice(-4)}` : id;
}
