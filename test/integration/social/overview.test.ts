import { randomUUID } from 'node:crypto';
import type { CreateEventCommentMutation, SocialOverviewQuery } from '../../../schema/generated/operations';
import type { PublicTrade } from '../../../src/venues/venue.models';
import { http, startTestApp, type TestApp } from '../../support/app';
import { publicTrade } from '../../support/trades';
import { statementsOf } from './statements';
import { EventsService } from '../../../src/modules/events/events.service';
import { TradeIngestService } from '../../../src/modules/ingestion/trade-ingest.service';
import { MarketsService } from '../../../src/modules/markets/markets.service';

/**
 * GET /api/social/overview runs the same, bounded number of SQL statements
 * whatever the data behind it: few traders, comments and events, then many
 * (hundreds of traders, threads with replies and likes, events with several
 * markets each), at the smallest and the largest size.
 */
let app: TestApp;

type Overview = SocialOverviewQuery['socialOverview'];

beforeAll(async () => {
  // No background SQL inside a measurement: the withdrawal dispatcher's poll is off; no backfilled traders.
  app = await startTestApp({ SIM_BACKFILL_TRADES: '0', WITHDRAWAL_DISPATCH_MS: '0' });
  const market = await app.services.db.prisma.market.findFirstOrThrow({
    where: { venue: 'venue_a' },
    orderBy: { id: 'asc' },
  });
  // Few: three traders, one thread with a reply.
  const t = (i: number): PublicTrade =>
    publicTrade({
      venueTradeId: `ov-${i}`,
      venueMarketId: market.venueMarketId,
      venueTraderId: '0x' + String(i).repeat(40).slice(0, 40),
      size: i,
      filledAt: new Date(Date.now() - 60_000 + i),
    });
  await app.services.get(TradeIngestService).ingest([t(1), t(2), t(3)]);
  const slug = app.services.world.coreEvents[0].slug;
  const user = app.as('ov-user');
  const c = (await user.post(`/api/events/${slug}/comments`, { body: 'hot take' }))
    .body as CreateEventCommentMutation['createEventComment'];
  await user.post(`/api/events/${slug}/comments`, { body: 'reply', parentId: c.id });
});
afterAll(async () => {
  await app.close();
});

/** Many: 400 more traders, 300 threads with replies and likes, 120 events of 4 markets each, all ranking first. */
async function growData(): Promise<void> {
  const prisma = app.services.db.prisma;
  const now = Date.now();
  await prisma.traderStat.createMany({
    data: Array.from({ length: 400 }, (_, i) => ({
      venue: i % 2 ? ('venue_a' as const) : ('venue_b' as const),
      traderId: i % 2 ? '0x' + (1000 + i).toString(16).padStart(40, '0') : `ov_trader_${i}`,
      totalVolume: String(1000 + i),
      totalTrades: 10,
      winCount: 1,
      lossCount: 1,
      realizedPnl: '1',
      unrealizedPnl: '0',
      totalPnl: '1',
      firstTradeAt: new Date(now - 86_400_000),
      lastTradeAt: new Date(now),
    })),
  });
  const events = app.services.world.coreEvents;
  const roots = Array.from({ length: 300 }, (_, i) => ({
    id: randomUUID(),
    eventId: events[i % events.length].id,
    authorId: `ov-author-${i}`,
    body: `thread ${i}`,
    replyCount: 3,
    likeCount: i % 7,
    createdAt: new Date(now - i * 1000),
  }));
  await prisma.comment.createMany({ data: roots });
  await prisma.comment.createMany({
    data: roots.flatMap((r) =>
      [1, 2, 3].map((k) => ({
        id: randomUUID(),
        eventId: r.eventId,
        parentId: r.id,
        authorId: `ov-replier-${k}`,
        body: 'reply',
      })),
    ),
  });
  await prisma.commentLike.createMany({
    data: roots.flatMap((r, i) =>
      Array.from({ length: i % 7 }, (_, k) => ({ commentId: r.id, userId: `ov-fan-${k}` })),
    ),
  });
  await prisma.coreEvent.createMany({
    data: Array.from({ length: 120 }, (_, i) => ({
      id: `ov_evt_${i}`,
      slug: `ov-event-${i}`,
      title: `Overview event ${i}`,
      category: 'overview',
      sourceType: 'venue_b_only' as const,
      activityScore: String(10_000_000 + i),
    })),
  });
  await prisma.market.createMany({
    data: Array.from({ length: 120 * 4 }, (_, i) => ({
      id: `venue_b:ov-mkt-${i}`,
      venue: 'venue_b' as const,
      venueMarketId: `ov-mkt-${i}`,
      venueEventId: `ov-vevt-${Math.floor(i / 4)}`,
      coreEventId: `ov_evt_${Math.floor(i / 4)}`,
      title: `Market ${i}`,
      status: 'active' as const,
      outcomes: ['yes', 'no'],
      bestBid: '0.4',
      bestAsk: '0.6',
      lastPrice: '0.5',
    })),
  });
}

/** One cold read (the catalog memo dropped): its status checked, its body returned. */
const cold = (size: number) => async () => {
  app.services.get(EventsService).invalidate();
  app.services.get(MarketsService).invalidate();
  const r = await http(`${app.url}/api/social/overview?size=${size}`);
  expect(r.status).toBe(200);
  return r.body as Overview;
};

describe('GET /api/social/overview SQL statements', () => {
  it('are the same for few and many traders, comments and events, at sizes 1 and 50, and at most 10', async () => {
    const few = await cold(50)();
    expect([few.topTraders.length, few.activeComments.length]).toEqual([3, 1]);
    const fewCounts = [await statementsOf(app, cold(1)), await statementsOf(app, cold(50))];

    await growData();
    const many = await cold(50)();
    expect([many.topTraders.length, many.hotEvents.length, many.activeComments.length]).toEqual([50, 50, 50]);
    expect(many.hotEvents.every((e) => e.id.startsWith('ov_evt_') && e.markets.length === 4)).toBe(true);
    expect(many.activeComments.every((c) => c.replyCount === 3)).toBe(true);
    const manyCounts = [await statementsOf(app, cold(1)), await statementsOf(app, cold(50))];

    process.stdout.write(
      `\noverview SQL statements: ${fewCounts.join(', ')} (few, sizes 1 and 50), ${manyCounts.join(', ')} (many)\n`,
    );
    expect(manyCounts).toEqual(fewCounts);
    expect(new Set(fewCounts).size).toBe(1);
    // Top traders (page and count in a transaction: 4 with BEGIN and COMMIT), hot events (the same: 4),
    // their markets (one batch), active comments (one).
    expect(fewCounts[0]).toBeLessThanOrEqual(10);
  });
});
