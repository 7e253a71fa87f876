import type { PrismaClient } from '../../db/generated/client';
import type { Venue } from '../../venues/venue.types';
import { normalizeTraderId } from './trader-id';

export interface FollowView {
  venue: Venue;
  traderId: string;
  createdAt: Date;
}

export interface FollowPage {
  data: FollowView[];
  limit: number;
  offset: number;
  total: number;
}

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

  async list(userId: string, limit: number, offset: number): Promise<FollowPage> {
    const where = { userId };
    const [data, total] = await this.prisma.$transaction([
      this.prisma.follow.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { traderId: 'asc' }],
        skip: offset,
        take: limit,
        select: { venue: true, traderId: true, createdAt: true },
      }),
      this.prisma.follow.count({ where }),
    ]);
    return { data, limit, offset, total };
  }
}
