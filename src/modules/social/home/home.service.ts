import { Prisma, type PrismaClient } from '../../../db/generated/client';
import type { OutcomeSide, Side, Venue } from '../../../venues/venue.models';
import type { EventView } from '../../events/events.models';
import type { EventsService } from '../../events/events.service';
import { HOME_LIMITS } from './home.limits';
import { tradeFigures, type TradeFigures } from '../../trades/trades.models';

/** A followed trader's trade, with the event it belongs to when the market is in the catalog. */
export interface HomeActivityView extends TradeFigures {
  traderId: string;
  filledAt: Date;
  marketTitle: string | null;
  eventId: string | null;
  eventTitle: string | null;
  category: string | null;
}

interface ActivityRow {
  venue: Venue;
  venueTradeId: string;
  venueTraderId: string;
  venueMarketId: string;
  side: Side;
  outcome: OutcomeSide;
  price: string;
  size: string;
  filledAt: Date;
  marketTitle: string | null;
  eventId: string | null;
  eventTitle: string | null;
  category: string | null;
}

/**
 * The home screen's own reads: followed traders' recent trades (one
 * statement, whatever the follows and trades) and trending events (the events
 * module's activity ordering). The positions summary is the portfolio's.
 */
export class HomeService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly events: Pick<EventsService, 'discover'>,
  ) {}

  /** Newest trades of the traders the user follows; with `category`, only trades on that category's events. */
  async activity(
    userId: string,
    category: string | undefined,
    limit: number = HOME_LIMITS.activity,
  ): Promise<HomeActivityView[]> {
    const filter = category === undefined ? Prisma.empty : Prisma.sql`AND e."category" = ${category}`;
    const rows = await this.prisma.$queryRaw<ActivityRow[]>`
      SELECT t."venue"::text AS "venue", t."venueTradeId", t."venueTraderId", t."venueMarketId",
             t."side"::text AS "side", t."outcome"::text AS "outcome", t."price"::text AS "price",
      t."size"::text AS "size", t."filledAt",
             m."title" AS "marketTitle", e."id" AS "eventId", e."title" AS "eventTitle", e."category"
      FROM "Follow" f
      JOIN "Trade" t ON t."venue" = f."venue" AND t."venueTraderId" = f."traderId"
      LEFT JOIN "Market" m ON m."venue" = t."venue" AND m."venueMarketId" = t."venueMarketId"
      LEFT JOIN "CoreEvent" e ON e."id" = m."coreEventId"
      WHERE f."userId" = ${userId} ${filter}
      ORDER BY t."filledAt" DESC, t."id" ASC
      LIMIT ${limit}`;
    return rows.map((r) => ({
      ...tradeFigures(r),
      traderId: r.venueTraderId,
      filledAt: r.filledAt,
      marketTitle: r.marketTitle,
      eventId: r.eventId,
      eventTitle: r.eventTitle,
      category: r.category,
    }));
  }

  /** The most active events (the events module's activity ordering), optionally of one category. */
  async trending(category: string | undefined, size: number = HOME_LIMITS.trending): Promise<EventView[]> {
    return (await this.events.discover({ page: 1, pageSize: size, category, sort: 'activity_desc' })).data;
  }
}
