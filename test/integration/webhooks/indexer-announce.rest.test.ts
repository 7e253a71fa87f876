import { TraderStatsService } from '../../../src/modules/social/traders/trader-stats.service';
import { FollowsService } from '../../../src/modules/social/follows/follows.service';
import { TradeIngestService } from '../../../src/modules/ingestion/trade-ingest.service';
import { TRADES_TOPIC, type TradeEvent } from '../../../src/modules/trades';
import { insertTrades } from '../../../src/modules/webhooks/fill-store';
import { IndexerWebhookService } from '../../../src/modules/webhooks/indexer.service';
import { checkFill, fillToTrade } from '../../../src/modules/webhooks/order-filled';
import { http, startTestApp, type TestApp } from '../../support/app';
import { pubsubDelivered } from '../../support/pubsub';
import { sleep } from '../../support/wait';
import { fillFactory, hex } from './fill-fixtures';

const SECRET = 'indexer-secret-announce';
const FAN = 'announce-fan';

let app: TestApp;
let markets: { venueMarketId: string }[];
const published: TradeEvent[] = [];
beforeAll(async () => {
  app = await startTestApp({ INDEXER_SHARED_SECRET: SECRET });
  markets = await app.services.db.prisma.market.findMany({
    where: { venue: 'venue_a' },
    select: { venueMarketId: true },
    take: 3,
  });
  await app.services.infra.pubsub.subscribe<TradeEvent>(TRADES_TOPIC, (t) => published.push(t));
  // The periodic sweep is stopped (deliveries still announce): the tests run it by hand.
  await app.services.get(IndexerWebhookService).stop();
});
afterAll(async () => {
  await app.close();
});
afterEach(() => {
  jest.restoreAllMocks();
});

const fill = fillFactory(() => markets, 900_000);
const send = (fills: unknown) =>
  http(`${app.url}/webhooks/chain-indexer/venue_a`, {
    method: 'POST',
    headers: { 'x-indexer-secret': SECRET },
    json: { fills },
  });

/** A trader the fan follows, and `n` fills of theirs. */
async function followedBatch(traderNo: number, n: number) {
  const maker = `0x${hex(traderNo, 40)}`;
  await app.services.db.prisma.follow.create({ data: { userId: FAN, venue: 'venue_a', traderId: maker } });
  return { maker, batch: Array.from({ length: n }, (_, i) => fill({ m: i % markets.length, side: 'buy', maker })) };
}

/** What the announcement of `maker`'s trades produced: publications, notifications, counted trades. */
async function effects(maker: string) {
  const prisma = app.services.db.prisma;
  const notes = await prisma.notification.findMany({ where: { userId: FAN, kind: 'followed_trade' } });
  const stat = await prisma.traderStat.findUnique({ where: { venue_traderId: { venue: 'venue_a', traderId: maker } } });
  return {
    published: published.filter((t) => t.traderId === maker).length,
    notified: notes.filter((n) => (n.data as { traderId?: string }).traderId === maker).length,
    counted: stat?.totalTrades ?? 0,
  };
}

/**
 * Checks `maker`'s effects once the work is settled: the notifications and stats are written by the
 * announcement the caller awaited, and every publication it made has reached this process's
 * listener once a later marker has (pub/sub delivers in publish order). Nothing can arrive after.
 */
async function expectEffects(maker: string, expected: Awaited<ReturnType<typeof effects>>): Promise<void> {
  await pubsubDelivered(app.services.infra.pubsub);
  expect(await effects(maker)).toEqual(expected);
}

/** Waits until `maker`'s effects are `expected`, for work the test does not await (the sweep on its schedule). */
async function effectsReach(maker: string, expected: Awaited<ReturnType<typeof effects>>): Promise<void> {
  const deadline = Date.now() + 15_000;
  let seen = await effects(maker);
  while (JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() < deadline) {
    await sleep(20);
    seen = await effects(maker);
  }
  expect(seen).toEqual(expected);
}

const settle = () => app.services.get(IndexerWebhookService).drain();
const pending = () => app.services.get(IndexerWebhookService).pendingAnnouncements();

describe('announcing indexed trades is durable', () => {
  it('a failing step does not stop the others; the redelivery runs it, exactly once', async () => {
    const { maker, batch } = await followedBatch(0xa1, 5);
    jest.spyOn(app.services.get(TraderStatsService), 'apply').mockRejectedValueOnce(new Error('stats store down'));
    expect((await send(batch)).body).toEqual({ received: 5, skipped: 0 });
    await settle();
    // Publication and notifications ran although the stats failed.
    await expectEffects(maker, { published: 5, notified: 5, counted: 0 });
    expect(await pending()).toBe(1);

    // The indexer redelivers: every trade is a duplicate, the missing step runs once.
    expect((await send(batch)).body).toEqual({ received: 5, skipped: 5 });
    await settle();
    await expectEffects(maker, { published: 5, notified: 5, counted: 5 });
    expect(await pending()).toBe(0);

    expect((await send(batch)).body).toEqual({ received: 5, skipped: 5 });
    await settle();
    await expectEffects(maker, { published: 5, notified: 5, counted: 5 });
  });

  it('the sweep runs a failed step without any redelivery, by hand and on its schedule', async () => {
    const { maker, batch } = await followedBatch(0xa2, 4);
    jest
      .spyOn(app.services.get(FollowsService), 'tradeNotifications')
      .mockRejectedValueOnce(new Error('followers unavailable'));
    await send(batch);
    await settle();
    await expectEffects(maker, { published: 4, notified: 0, counted: 4 });
    expect(await app.services.get(IndexerWebhookService).sweepSoon()).toBe(1);
    await expectEffects(maker, { published: 4, notified: 4, counted: 4 });
    expect(await app.services.get(IndexerWebhookService).sweepSoon()).toBe(0);

    const other = await followedBatch(0xa3, 3);
    jest.spyOn(app.services.infra.pubsub, 'publishMany').mockRejectedValueOnce(new Error('pub/sub down'));
    await send(other.batch);
    await settle();
    await expectEffects(other.maker, { published: 0, notified: 3, counted: 3 });
    // This time the schedule runs the sweep; once stopped, nothing more runs.
    app.services.get(IndexerWebhookService).start(25);
    await effectsReach(other.maker, { published: 3, notified: 3, counted: 3 });
    await app.services.get(IndexerWebhookService).stop();
    await expectEffects(other.maker, { published: 3, notified: 3, counted: 3 });
    expect(await pending()).toBe(0);
  });

  it('trades a process stored and died before announcing are announced once its lease has passed', async () => {
    const { maker, batch } = await followedBatch(0xa4, 6);
    // The dead process's write: the trades and their announcement record, leased to it, never run.
    const nowS = Math.floor(Date.now() / 1000);
    const trades = batch.map((f, i) => {
      const c = checkFill(f, i, nowS);
      return fillToTrade(c, { venueMarketId: markets[i % markets.length].venueMarketId, outcome: 'yes' });
    });
    const stored = await insertTrades(app.services.db.sql, trades, 60_000);
    expect(stored.fresh.size).toBe(6);
    // Within the lease a redelivery leaves the record to its owner.
    expect((await send(batch)).body).toEqual({ received: 6, skipped: 6 });
    await settle();
    await expectEffects(maker, { published: 0, notified: 0, counted: 0 });
    // The lease passes (the owner is gone): the next sweep, or a redelivery, runs the whole announcement once.
    await app.services.db.prisma
      .$executeRaw`UPDATE "TradeAnnouncement" SET "leaseUntil" = now() - interval '1 second' WHERE "id" =
        ${stored.announcementId}`;
    expect((await send(batch)).body).toEqual({ received: 6, skipped: 6 });
    await settle();
    await expectEffects(maker, { published: 6, notified: 6, counted: 6 });
    expect(await app.services.get(IndexerWebhookService).sweepSoon()).toBe(0);
    await expectEffects(maker, { published: 6, notified: 6, counted: 6 });
    expect(await pending()).toBe(0);
  });

  it('live trade ingestion runs every step too when one fails', async () => {
    const maker = `0x${hex(0xa5, 40)}`;
    await app.services.db.prisma.follow.create({ data: { userId: FAN, venue: 'venue_a', traderId: maker } });
    jest.spyOn(app.services.get(TraderStatsService), 'apply').mockRejectedValueOnce(new Error('stats store down'));
    const t = {
      venue: 'venue_a' as const,
      venueTradeId: 'live-1',
      venueMarketId: markets[0].venueMarketId,
      venueTraderId: maker,
      side: 'buy' as const,
      outcome: 'yes' as const,
      price: 0.5,
      size: 2,
      filledAt: new Date(1_760_000_000_000),
    };
    expect(await app.services.get(TradeIngestService).ingest([t])).toHaveLength(1);
    await expectEffects(maker, { published: 1, notified: 1, counted: 0 });
  });
});
