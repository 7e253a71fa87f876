import type { IngestVenueAFillsMutation } from '../../../schema/generated/operations';
import { TRADES_TOPIC, type TradeEvent } from '../../../src/modules/trades';
import { IndexerWebhookService } from '../../../src/modules/webhooks/indexer.service';
import { MAX_TOKENS } from '../../../src/modules/webhooks/order-filled';
import { http, startTestApp, type TestApp } from '../../support/app';
import { gql } from '../../support/graphql';
import { itOnPostgres } from '../../support/modes';
import { sleep, waitFor } from '../../support/wait';
import { fillFactory, hex, shuffled } from './fill-fixtures';

const SECRET = 'indexer-secret-test';
const URL_PATH = '/webhooks/chain-indexer/venue_a';

let app: TestApp;
let markets: { venueMarketId: string; coreEventId: string }[];
const published: TradeEvent[] = [];
beforeAll(async () => {
  app = await startTestApp({ INDEXER_SHARED_SECRET: SECRET });
  markets = await app.services.db.prisma.market.findMany({
    where: { venue: 'venue_a' },
    select: { venueMarketId: true, coreEventId: true },
    take: 5,
  });
  await app.services.infra.pubsub.subscribe<TradeEvent>(TRADES_TOPIC, (t) => published.push(t));
});
afterAll(async () => {
  await app.close();
});

const fill = fillFactory(() => markets);

const send = (fills: unknown, secret: string | null = SECRET) =>
  http(`${app.url}${URL_PATH}`, {
    method: 'POST',
    headers: secret === null ? {} : { 'x-indexer-secret': secret },
    json: { fills },
  });

/**
 * Runs the sends at once on PostgreSQL: their inserts are first held back by a
 * SHARE lock on the trades table until all of them wait for it, then released
 * together, so the statements really overlap (one process's request handling is
 * otherwise sequential enough that they rarely would).
 */
async function atOnce<T>(sends: (() => Promise<T>)[]): Promise<T[]> {
  const prisma = app.services.db.prisma;
  let results: Promise<T[]> | undefined;
  await prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`LOCK TABLE "Trade" IN SHARE MODE`;
      results = Promise.all(sends.map((s) => s()));
      for (let i = 0; i < 1000; i += 1) {
        const [w] = await tx.$queryRaw<
          { n: number }[]
        >`SELECT count(*)::int AS n FROM pg_locks WHERE relation = '"Trade"'::regclass AND NOT granted`;
        if (w.n >= sends.length) break;
        await sleep(10);
      }
    },
    { timeout: 30_000 },
  );
  return results!;
}

/** The `ingestVenueAFills` mutation over GraphQL, with the indexer's secret. */
const ingest = (variables: { f: unknown }) =>
  gql(app, 'mutation($f: OrderFilledBatch!) { ingestVenueAFills(fills: $f) { received skipped } }', variables, {
    'x-indexer-secret': SECRET,
  });

const fillTrades = () => app.services.db.prisma.trade.count({ where: { venueTradeId: { startsWith: 'fill_' } } });

describe('POST /webhooks/chain-indexer/venue_a', () => {
  it('401 without or with a wrong X-Indexer-Secret; nothing written', async () => {
    expect((await send([fill({ m: 0, side: 'buy' })], null)).status).toBe(401);
    const wrong = await send([fill({ m: 0, side: 'buy' })], `${SECRET}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: 'unauthorized' });
    expect(await fillTrades()).toBe(0);
  });

  it.each([
    ['a non-hex maker', { maker: '0xnothex' }, 'fills.1.maker'],
    ['both sides tokens', { makerAssetId: '5', takerAssetId: '6' }, 'fills.1.makerAssetId'],
    ['both sides USDC', { makerAssetId: '0', takerAssetId: '0' }, 'fills.1.makerAssetId'],
    [
      'a price above 1',
      { makerAssetId: '0', makerAmountFilled: '2000001', takerAmountFilled: '2000000' },
      'fills.1.makerAmountFilled',
    ],
    ['zero tokens', { makerAssetId: '0', takerAmountFilled: '0' }, 'fills.1.takerAmountFilled'],
    ['a future timestamp', { timestamp: String(Math.floor(Date.now() / 1000) + 86_400) }, 'fills.1.timestamp'],
    ['a fractional amount', { fee: '1.5' }, 'fills.1.fee'],
    ['a missing field', { orderHash: undefined }, 'fills.1.orderHash'],
  ])('400 for a batch with %s; nothing written', async (_name, patch, field) => {
    const good = fill({ m: 0, side: 'buy' });
    const bad = { ...fill({ m: 1, side: 'buy' }), ...patch };
    const r = await send([good, bad, fill({ m: 2, side: 'sell' })]);
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message.startsWith(`${field}: `)).toBe(true);
    expect(await fillTrades()).toBe(0);
  });

  it('stores the largest fill it accepts (no overflow) and refuses the next amount with a 400', async () => {
    const largest = (MAX_TOKENS - 1n).toString();
    const ok = { ...fill({ m: 0, side: 'buy' }), makerAmountFilled: largest, takerAmountFilled: largest };
    expect((await send([ok])).body).toEqual({ received: 1, skipped: 0 });
    const [row] = await app.services.db.prisma.trade.findMany({ where: { venueTradeId: { startsWith: 'fill_' } } });
    expect([row.price.toString(), row.size.lessThan(1e14), row.size.greaterThan(99_999_999_999_998)]).toEqual([
      '1',
      true,
      true,
    ]);
    await waitFor(() => published.length === 1, 'one trade published');
    published.length = 0;
    await app.services.db.prisma.trade.deleteMany({ where: { venueTradeId: { startsWith: 'fill_' } } });

    const over = {
      ...fill({ m: 0, side: 'buy' }),
      makerAmountFilled: MAX_TOKENS.toString(),
      takerAmountFilled: MAX_TOKENS.toString(),
    };
    const r = await send([over]);
    expect([r.status, (r.body as { message: string }).message]).toEqual([
      400,
      `fills.0.takerAmountFilled: outcome tokens must be positive and below ${MAX_TOKENS} base units`,
    ]);
    expect(await fillTrades()).toBe(0);
  });

  it('400 for an empty or oversized batch', async () => {
    expect((await send([])).status).toBe(400);
    const big = Array.from({ length: 1001 }, () => fill({ m: 0, side: 'buy' }));
    expect((await send(big)).status).toBe(400);
  });

  it('writes one trade per fill, read from the maker side, and publishes it', async () => {
    const maker = '0x00000000000000000000000000000000000000aA';
    const batch = [
      fill({ m: 0, side: 'buy', outcome: 'yes', maker, usdc: 425_000, tokens: 1_000_000, ts: 1_760_000_000 }),
      fill({ m: 0, side: 'sell', outcome: 'no', maker, usdc: 1_234_567, tokens: 2_000_000, ts: 1_760_000_000 }),
    ];
    const r = await send(batch);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ received: 2, skipped: 0 });
    const rows = await app.services.db.prisma.trade.findMany({
      where: { venueTradeId: { startsWith: 'fill_' } },
      orderBy: { side: 'asc' },
    });
    expect(
      rows.map((t) => [
        t.venue,
        t.venueMarketId,
        t.venueTraderId,
        t.side,
        t.outcome,
        t.price.toString(),
        t.size.toString(),
        t.filledAt.toISOString(),
      ]),
    ).toEqual([
      [
        'venue_a',
        markets[0].venueMarketId,
        maker.toLowerCase(),
        'buy',
        'yes',
        '0.425',
        '1',
        '2025-10-09T08:53:20.000Z',
      ],
      [
        'venue_a',
        markets[0].venueMarketId,
        maker.toLowerCase(),
        'sell',
        'no',
        '0.617284',
        '2',
        '2025-10-09T08:53:20.000Z',
      ],
    ]);
    await waitFor(() => published.length === 2, 'two trades published');
    expect(published.map((t) => [t.venue, t.marketId, t.eventId, t.side, t.price])).toEqual([
      ['venue_a', markets[0].venueMarketId, markets[0].coreEventId, 'buy', 0.425],
      ['venue_a', markets[0].venueMarketId, markets[0].coreEventId, 'sell', 0.617284],
    ]);
  });

  it(
    'the same batch delivered 3 times, reordered and concurrently, leaves one trade per fill and publishes each ' +
      'once',
    async () => {
      const before = await fillTrades();
      const published0 = published.length;
      const batch = Array.from({ length: 30 }, (_, i) =>
        fill({
          m: i % markets.length,
          side: i % 3 === 0 ? 'sell' : 'buy',
          outcome: i % 2 ? 'yes' : 'no',
          maker: `0x${hex(1000 + (i % 4), 40)}`,
        }),
      );
      const reversed = [...batch].reverse();
      const shuffled = batch
        .map((f, i) => [((i * 7919) % 31) / 31, f] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, f]) => f);
      const rs = await Promise.all([send(batch), send(reversed), send(shuffled)]);
      expect(rs.map((r) => r.status)).toEqual([200, 200, 200]);
      const acks = rs.map((r) => r.body as IngestVenueAFillsMutation['ingestVenueAFills']);
      expect(acks.every((a) => a.received === 30)).toBe(true);
      expect(acks.reduce((s, a) => s + (a.received - a.skipped), 0)).toBe(30);
      expect(await fillTrades()).toBe(before + 30);
      const again = await send(shuffled);
      expect(again.body).toEqual({ received: 30, skipped: 30 });
      expect(await fillTrades()).toBe(before + 30);
      // A fresh fill after the redeliveries: once it arrives, every earlier message has (publish order).
      const marker = fill({ m: 0, side: 'buy', maker: `0x${hex(999_999, 40)}` });
      expect((await send([marker])).body).toEqual({ received: 1, skipped: 0 });
      await waitFor(
        () => published.some((t) => t.traderId === marker.maker.toLowerCase()),
        "the marker's trade published",
      );
      expect(published.length - published0).toBe(31);
      expect(new Set(published.map((t) => t.id)).size).toBe(published.length);
    },
  );

  // One connection serves PGlite: a deadlock needs two, so this is PostgreSQL's (reordered redeliveries of one batch,
  // at a smaller size, are the test above, in both modes).
  itOnPostgres(
    'large batches delivered 3 times at once in different orders never deadlock (several rounds)',
    async () => {
      // On PostgreSQL, inserts of the same keys in different orders used to deadlock ("deadlock
      // detected", 500) a few times in such rounds; rows now go in in one canonical order.
      const before = await fillTrades();
      const SIZE = 800;
      const ROUNDS = 4;
      for (let round = 0; round < ROUNDS; round += 1) {
        const batch = Array.from({ length: SIZE }, (_, i) =>
          fill({
            m: i % markets.length,
            side: i % 3 === 0 ? 'sell' : 'buy',
            outcome: i % 2 ? 'yes' : 'no',
            maker: `0x${hex(50_000 + round * SIZE + i, 40)}`,
          }),
        );
        const rs = await atOnce([
          () => send(batch),
          () => send([...batch].reverse()),
          () => send(shuffled(batch, round + 1)),
        ]);
        expect(rs.map((r) => [r.status, (r.body as { error?: string }).error])).toEqual([
          [200, undefined],
          [200, undefined],
          [200, undefined],
        ]);
        const acks = rs.map((r) => r.body as IngestVenueAFillsMutation['ingestVenueAFills']);
        expect(acks.reduce((s, a) => s + (a.received - a.skipped), 0)).toBe(SIZE);
      }
      expect(await fillTrades()).toBe(before + SIZE * ROUNDS);
      await app.services.get(IndexerWebhookService).drain();
      expect(await app.services.get(IndexerWebhookService).pendingAnnouncements()).toBe(0);
    },
  );

  it(
    'the fill identity decides: a repeat inside a batch and another record of the same identity are ' + 'skipped',
    async () => {
      const before = await fillTrades();
      const a = fill({ m: 3, side: 'buy', ts: 1_760_100_000 });
      const sameIdentity = { ...fill({ m: 3, side: 'buy', ts: 1_760_100_000 }), takerAmountFilled: '5000000' };
      const r = await send([a, a, sameIdentity]);
      expect(r.body).toEqual({ received: 3, skipped: 2 });
      expect(await fillTrades()).toBe(before + 1);
    },
  );

  it('skips fills on assets no known market has', async () => {
    const unknown = { ...fill({ m: 0, side: 'buy' }), takerAssetId: '12345678901234567890' };
    const r = await send([unknown, fill({ m: 4, side: 'sell' })]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ received: 2, skipped: 1 });
  });

  it('accepts numeric timestamps and amounts; answers on GraphQL too', async () => {
    const f = fill({ m: 2, side: 'buy', ts: 1_760_200_000 });
    const numeric = { ...f, timestamp: 1_760_200_000, makerAmountFilled: 420_000, fee: 0 };
    expect((await send([numeric])).body).toEqual({ received: 1, skipped: 0 });
    const g = fill({ m: 2, side: 'sell', ts: 1_760_200_001 });
    const r = await ingest({ f: [g, g] });
    expect(r.body).toEqual({ data: { ingestVenueAFills: { received: 2, skipped: 1 } } });
  });

  it.each([
    ['a record that is not an object', () => [null], 'fills.0: must be an OrderFilled object'],
    ['a missing field', () => [{ id: 'x' }], 'fills.0.transactionHash: is required'],
    [
      'a field of the wrong type',
      () => [{ ...fill({ m: 2, side: 'buy', ts: 1_760_200_002 }), maker: 42 }],
      'fills.0.maker: must be a string',
    ],
    ['a value that is not a list', () => ({ not: 'a list' }), 'fills: must be a list of OrderFilled records'],
  ])('GraphQL: %s is a 400 naming the field, nothing written', async (_what, batch, message) => {
    const f = batch();
    const before = await app.services.db.prisma.trade.count();
    const r = await ingest({ f });
    expect(r.body.errors![0].extensions.code).toBe('bad_request');
    expect(r.body.errors![0].message).toContain(message);
    expect(await app.services.db.prisma.trade.count()).toBe(before);
  });
});
