import type { PrismaClient } from '../../db/generated/client';
import type { Venue } from '../../venues/venue.models';
import type { StreamMarket } from '../../venues/venue-stream';

/** A followed market, with the catalog's last price (what a book starts from until a trade is seen). */
export type FollowedMarket = StreamMarket & { lastPrice: number | null };

/**
 * The markets a venue's stream follows: the catalog's `limit` most active markets of the venue
 * (by 24-hour volume), and every market a client watches (`demanded`) that the catalog holds.
 * venue_a's are followed by their outcome tokens (a market without both is left out).
 */
export async function followedMarkets(
  prisma: PrismaClient,
  venue: Venue,
  limit: number,
  demanded: readonly string[],
): Promise<FollowedMarket[]> {
  const select = { venueMarketId: true, outcomeTokenIds: true, lastPrice: true } as const;
  const [top, asked] = await Promise.all([
    limit > 0
      ? prisma.market.findMany({
          where: { venue, status: 'active' },
          orderBy: [{ volume24h: { sort: 'desc', nulls: 'last' } }, { id: 'asc' }],
          take: limit,
          select,
        })
      : Promise.resolve([]),
    demanded.length > 0
      ? prisma.market.findMany({ where: { venue, venueMarketId: { in: [...demanded] } }, select })
      : Promise.resolve([]),
  ]);
  const out = new Map<string, FollowedMarket>();
  for (const m of [...top, ...asked]) {
    if (out.has(m.venueMarketId)) continue;
    const [yes, no] = m.outcomeTokenIds;
    if (venue === 'venue_a' && (!yes || !no)) continue;
    out.set(m.venueMarketId, {
      venueMarketId: m.venueMarketId,
      lastPrice: m.lastPrice === null ? null : Number(m.lastPrice),
      ...(yes && no && { tokens: { yes, no } }),
    });
  }
  return [...out.values()];
}
