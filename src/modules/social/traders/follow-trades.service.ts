import { Prisma, type PrismaClient } from '../../../db/generated/client';
import { AppError } from '../../../errors/app-error';
import type { HistoryService } from '../../charts/charts.service';
import { historyWindow, type HistoryWindow } from '../../charts/charts.models';
import type { EventsService } from '../../events/events.service';
import type { OutcomeSide, Side, Venue } from '../../../venues/venue.models';
import { groupBubbles, type BubbleTrade, type BubbleView } from './bubbles';
import { exactMicros } from './trader-stats.sql';
import { FOLLOW_TRADES_LIMITS, TRADER_IDENTITY_VENUES } from './traders.limits';

export interface FollowTradesRequest {
  interval?: string;
  from?: number;
  to?: number;
  topN?: number;
}

/** One market of the event with its bubbles. */
export interface FollowTradesMarketView {
  venue: Venue;
  marketId: string;
  title: string;
  /** False where the venue's public feed has no trader identity (venue_b): `bubbles` is then always empty. */
  traderIdentity: boolean;
  bubbles: BubbleView[];
}

/** The overlay on the window the event's history reports (bubbles cover its whole buckets). */
export interface FollowTradesView extends HistoryWindow {
  eventId: string;
  topN: number;
  markets: FollowTradesMarketView[];
}

/**
 * The follow-trade overlay of an event's chart: the caller's followed traders'
 * trades on the event's markets, grouped into bubbles on the same buckets as
 * the event's history (the range is validated and defaulted by the history
 * service itself, and bubbles snap with its `bucketStart`).
 */
export class FollowTradesService {
  private readonly maxTrades: number;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly events: EventsService,
    private readonly history: HistoryService,
    opts: { maxTrades?: number } = {},
  ) {
    this.maxTrades = opts.maxTrades ?? FOLLOW_TRADES_LIMITS.maxTrades;
  }

  async overlay(userId: string, eventRef: string, req: FollowTradesRequest): Promise<FollowTradesView> {
    const { min, max, default: fallback } = FOLLOW_TRADES_LIMITS.topN;
    const topN = req.topN ?? fallback;
    if (!Number.isInteger(topN) || topN < min || topN > max)
      throw AppError.badRequest('topN', `must be an integer from ${min} to ${max}`);
    const range = this.history.range({ interval: req.interval, from: req.from, to: req.to });
    const event = await this.events.get(eventRef);
    const [markets] = await this.events.marketsByEventIds([event.id]);
    const tracked = markets.filter((m) => TRADER_IDENTITY_VENUES.includes(m.venue));
    const start = new Date(range.firstBucket * 1000);
    const end = new Date((range.lastBucket + range.bucketSeconds) * 1000);
    const trades = tracked.length === 0 ? [] : await this.followedTrades(userId, tracked, start, end);
    const bubbles = groupBubbles(trades, range.interval, topN);
    const byMarket = new Map<string, BubbleView[]>();
    for (const b of bubbles)
      byMarket.set(`${b.venue}|${b.marketId}`, [...(byMarket.get(`${b.venue}|${b.marketId}`) ?? []), b]);
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    return {
      eventId: event.id,
      ...historyWindow(range),
      topN,
      markets: [...markets]
        .sort((a, b) => cmp(a.venue, b.venue) || cmp(a.marketId, b.marketId))
        .map((m) => ({
          venue: m.venue,
          marketId: m.marketId,
          title: m.title,
          traderIdentity: TRADER_IDENTITY_VENUES.includes(m.venue),
          bubbles: byMarket.get(`${m.venue}|${m.marketId}`) ?? [],
        })),
    };
  }

  /** The followed traders' trades on the markets in [start, end): one statement, at most `maxTrades` rows. */
  private async followedTrades(
    userId: string,
    markets: readonly { venue: Venue; marketId: string }[],
    start: Date,
    end: Date,
  ): Promise<BubbleTrade[]> {
    const { maxTrades } = this;
    const pairs = Prisma.join(markets.map((m) => Prisma.sql`(${m.venue}::"Venue", ${m.marketId})`));
    const rows = await this.prisma.$queryRaw<
      {
        venue: Venue;
        marketId: string;
        traderId: string;
        side: Side;
        outcome: OutcomeSide;
        price: string;
        size: string;
        filledAt: Date;
      }[]
    >`
      SELECT t."venue"::text AS "venue", t."venueMarketId" AS "marketId", t."venueTraderId" AS "traderId",
             t."side"::text AS "side", t."outcome"::text AS "outcome", t."price"::text AS "price",
      t."size"::text AS "size", t."filledAt"
      FROM "Trade" t
      JOIN "Follow" f ON f."userId" = ${userId} AND f."venue" = t."venue" AND f."traderId" = t."venueTraderId"
      WHERE (t."venue", t."venueMarketId") IN (${pairs})
        AND t."filledAt" >= ${start} AND t."filledAt" < ${end}
      ORDER BY t."filledAt", t."id"
      LIMIT ${maxTrades + 1}`;
    if (rows.length > maxTrades) {
      throw AppError.badRequest(
        'from',
        `the range holds more than ${maxTrades} followed-trader trades; narrow from/to`,
      );
    }
    return rows.map((r) => ({ ...r, price: exactMicros(r.price), size: exactMicros(r.size) }));
  }
}
