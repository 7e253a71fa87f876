import { outcomeTokenId, type OrderFilled } from '../../../src/modules/webhooks';
import { TRADES_TOPIC, type TradeEvent } from '../../../src/modules/trades';
import { http, startTestApp, type TestApp } from '../../utils/app';

const SECRET = 'indexer-secret-test';
const URL_PATH = '/webhooks/chain-indexer/venue_a';

let app: TestApp;
let markets: { venueMarketId: string; coreEventId: string }[];
const published: TradeEvent[] = [];
beforeAll(async () => {
  app = await startTestApp({ INDEXER_SHARED_SECRET: SECRET });
  markets = await app.services.db.prisma.market.findMany({ where: { venue: 'venue_a' }, select: { venueMarketId: true, coreEventId: true }, take: 5 });
  await app.services.infra.pubsub.subscribe<TradeEvent>(TRADES_TOPIC, (t) => published.push(t));
});
afterAll(async () => {
  await app.close();
});

const hex = (n: number, len: number) => n.toString(16).padStart(len, '0');
let serial = 0;

/** A fill on market `m`: the maker buys `tokens` of `outcome` for `usdc` (base units), or sells them. */
function fill(o: { m: number; side: 'buy' | 'sell'; outcome?: 'yes' | 'no'; maker?: string; ts?: number; usdc?: number; tokens?: number }): OrderFilled {
  serial += 1;
  const token = outcomeTokenId(markets[o.m]!.venueMarketId, o.outcome ?? 'yes');
  const usdc = String(o.usdc ?? 420_000);
  const tokens = String(o.tokens ?? 1_000_000);
  const buy = o.side === 'buy';
  return {
    id: `0x${hex(serial, 64)}_0x${hex(serial + 1, 64)}`,
    transactionHash: `0x${hex(serial, 64)}`,
    timestamp: String(o.ts ?? 1_760_000_000 + serial),
    orderHash: `0x${hex(serial + 1, 64)}`,
    maker: o.maker ?? `0x${'Ab'.repeat(20)}`,
    taker: `0x${hex(7, 40)}`,
    makerAssetId: buy ? '0' : token,
    takerAssetId: buy ? token : '0',
    makerAmountFilled: buy ? usdc : tokens,
    takerAmountFilled: buy ? tokens : usdc,
    fee: '0',
  };
}

const send = (fills: unknown, secret: string | null = SECRET) =>
  http(`${app.url}${URL_PATH}`, { method: 'POST', headers: secret === null ? {} : { 'x-indexer-secret': secret }, json: { fills } });

const fillTrades = () => app.services.db.prisma.trade.count({ where: { venueTradeId: { startsWith: 'fill_' } } });

async function waitFor(pred: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !pred(); i += 1) await new Promise((r) => setTimeout(r, 10));
  expect(pred()).toBe(true);
}

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
    ['a price above 1', { makerAssetId: '0', makerAmountFilled: '2000001', takerAmountFilled: '2000000' }, 'fills.1.makerAmountFilled'],
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
    const rows = await app.services.db.prisma.trade.findMany({ where: { venueTradeId: { startsWith: 'fill_' } }, orderBy: { side: 'asc' } });
    expect(rows.map((t) => [t.venue, t.venueMarketId, t.venueTraderId, t.side, t.outcome, t.price.toString(), t.size.toString(), t.filledAt.toISOString()])).toEqual([
      ['venue_a', markets[0]!.venueMarketId, maker.toLowerCase(), 'buy', 'yes', '0.425', '1', '2025-10-09T08:53:20.000Z'],
      ['venue_a', markets[0]!.venueMarketId, maker.toLowerCase(), 'sell', 'no', '0.617284', '2', '2025-10-09T08:53:20.000Z'],
    ]);
    await waitFor(() => published.length === 2);
    expect(published.map((t) => [t.venue, t.marketId, t.eventId, t.side, t.price])).toEqual([
      ['venue_a', markets[0]!.venueMarketId, markets[0]!.coreEventId, 'buy', 0.425],
      ['venue_a', markets[0]!.venueMarketId, markets[0]!.coreEventId, 'sell', 0.617284],
    ]);
  });

  it('the same batch delivered 3 times, reordered and concurrently, leaves one trade per fill and publishes each once', async () => {
    const before = await fillTrades();
    const published0 = published.length;
    const batch = Array.from({ length: 30 }, (_, i) => fill({ m: i % markets.length, side: i % 3 === 0 ? 'sell' : 'buy', outcome: i % 2 ? 'yes' : 'no', maker: `0x${hex(1000 + (i % 4), 40)}` }));
    const reversed = [...batch].reverse();
    const shuffled = batch.map((f, i) => [((i * 7919) % 31) / 31, f] as const).sort((a, b) => a[0] - b[0]).map(([, f]) => f);
    const rs = await Promise.all([send(batch), send(reversed), send(shuffled)]);
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200]);
    const acks = rs.map((r) => r.body as { received: number; skipped: number });
    expect(acks.every((a) => a.received === 30)).toBe(true);
    expect(acks.reduce((s, a) => s + (a.received - a.skipped), 0)).toBe(30);
    expect(await fillTrades()).toBe(before + 30);
    const again = await send(shuffled);
    expect(again.body).toEqual({ received: 30, skipped: 30 });
    expect(await fillTrades()).toBe(before + 30);
    // A fresh fill after the redeliveries: once it arrives, every earlier message has (publish order).
    const marker = fill({ m: 0, side: 'buy', maker: `0x${hex(999_999, 40)}` });
    expect((await send([marker])).body).toEqual({ received: 1, skipped: 0 });
    await waitFor(() => published.some((t) => t.traderId === marker.maker.toLowerCase()));
    expect(published.length - published0).toBe(31);
    expect(new Set(published.map((t) => t.id)).size).toBe(published.length);
  });

  it('the fill identity decides: a repeat inside a batch and another record of the same identity are skipped', async () => {
    const before = await fillTrades();
    const a = fill({ m: 3, side: 'buy', ts: 1_760_100_000 });
    const sameIdentity = { ...fill({ m: 3, side: 'buy', ts: 1_760_100_000 }), takerAmountFilled: '5000000' };
    const r = await send([a, a, sameIdentity]);
    expect(r.body).toEqual({ received: 3, skipped: 2 });
    expect(await fillTrades()).toBe(before + 1);
  });

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
    const r = await http(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'x-indexer-secret': SECRET },
      json: { query: 'mutation($f: [OrderFilledInput!]!) { ingestVenueAFills(fills: $f) { received skipped } }', variables: { f: [g, g] } },
    });
    expect(r.body).toEqual({ data: { ingestVenueAFills: { received: 2, skipped: 1 } } });
  });
});
