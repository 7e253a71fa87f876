import { createPublicKey, constants, generateKeyPairSync, verify } from 'node:crypto';
import type { Infra } from '../../../src/infra';
import { createVenueBClient, VenueMarketNotFoundError, VenueUnavailableError } from '../../../src/venues';
import type { VenueBClient } from '../../../src/venues/live';
import { startFakeVenues, type FakeVenues } from '../../support/fake-venues';
import { capturingLogger, testInfra, venuesConfig } from './live-clients.support';

const C25 = 'KXFEDDECISION-26DEC-C25';
const BTC = 'KXBTCMAXY-27JUN30-T150000';

function keyPair(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

describe('venue_b live client (trade API v2 shapes)', () => {
  let fake: FakeVenues;
  let infra: Infra;
  let client: VenueBClient;
  const keys = keyPair();

  beforeAll(async () => {
    fake = await startFakeVenues();
    infra = await testInfra();
    client = createVenueBClient(
      // The key as a one-line environment value, newlines escaped.
      venuesConfig(fake, { VENUE_B_API_KEY_ID: 'key-123', VENUE_B_PRIVATE_KEY: keys.privatePem.replace(/\n/g, '\\n') }),
      { rateLimiter: infra.rateLimiter, logger: capturingLogger().logger, tuning: { pageSize: 3 } },
    );
  });
  afterAll(async () => {
    await client.close();
    await infra.close();
    await fake.close();
  });

  it('lists open events with nested markets by cursor paging, prices from cents and dollar strings', async () => {
    fake.requests.length = 0;
    const events = await client.listEvents();
    const pages = fake.requestsTo('kalshi', '/events');
    expect(pages).toHaveLength(2);
    expect(pages[0].query.get('cursor')).toBeNull();
    expect(pages[1].query.get('cursor')).toBeTruthy();
    expect(pages.every((r) => r.query.get('status') === 'open' && r.query.get('with_nested_markets') === 'true')).toBe(
      true,
    );
    expect(events.map((e) => e.venueEventId)).toEqual([
      'KXFEDDECISION-26DEC',
      'KXBTCMAXY-27JUN30',
      'KXHIGHNY-26DEC01',
      'KXGOVSHUT-26DEC31',
    ]);
    expect(events[0]).toMatchObject({
      venue: 'venue_b',
      title: 'Fed rate decision in Dec 2026',
      category: 'economics',
      closeTime: new Date('2026-12-16T19:00:00Z'),
    });
    expect(events[0].markets[0]).toMatchObject({
      venueMarketId: C25,
      venueEventId: 'KXFEDDECISION-26DEC',
      status: 'active',
      outcomes: ['Yes', 'No'],
      bestBid: 0.6,
      bestAsk: 0.62,
      lastPrice: 0.61,
      volume: 845210,
      volume24h: 30211,
      openInterest: 402117,
      liquidity: 21345.67,
      endDate: new Date('2026-12-16T18:55:00Z'),
    });
    expect(events[0].markets[0].outcomeTokenIds).toBeUndefined();
    expect(events.map((e) => e.category)).toEqual(['economics', 'crypto', 'science', 'politics']);
  });

  it('turns YES and NO bids (cents form) into one YES book with exact complements', async () => {
    const book = await client.getOrderBook(C25);
    expect(book.bids).toEqual([
      { price: 0.6, size: 75 },
      { price: 0.59, size: 120 },
      { price: 0.55, size: 400 },
    ]);
    // NO bids at 0.38, 0.37, 0.33 are YES asks at 0.62, 0.63, 0.67 (not 0.6699999…).
    expect(book.asks).toEqual([
      { price: 0.62, size: 40 },
      { price: 0.63, size: 90 },
      { price: 0.67, size: 600 },
    ]);
  });

  it('reads the fixed-point book form (dollar strings, fractional counts) and honours depth', async () => {
    const book = await client.getOrderBook(BTC, 1);
    expect(fake.requestsTo('kalshi', `/markets/${BTC}/orderbook`).at(-1)?.query.get('depth')).toBe('1');
    expect(book.bids).toEqual([{ price: 0.33, size: 30 }]);
    expect(book.asks).toEqual([{ price: 0.35, size: 12.5 }]);
    await expect(client.getOrderBook('NOPE-1')).rejects.toBeInstanceOf(VenueMarketNotFoundError);
  });

  it('serves candles from the series candlesticks, merged for intervals the venue lacks', async () => {
    const from = 1_795_600_000;
    const hourly = await client.getPriceHistory(C25, { interval: '1h', from, to: from + 5 * 3600 });
    const req = fake.requestsTo('kalshi', `/series/KXFEDDECISION/markets/${C25}/candlesticks`).at(-1)!;
    expect(req.query.get('period_interval')).toBe('60');
    expect(hourly.kind).toBe('ohlcv');
    if (hourly.kind !== 'ohlcv') return;
    expect(hourly.candles.length).toBeGreaterThanOrEqual(5);
    for (const c of hourly.candles) {
      expect(c.t % 3600).toBe(0);
      expect(c.l).toBeLessThanOrEqual(Math.min(c.o, c.c));
      expect(c.h).toBeGreaterThanOrEqual(Math.max(c.o, c.c));
      expect(Math.round(c.c * 100)).toBeCloseTo(c.c * 100, 9);
    }
    const fiveMin = await client.getPriceHistory(C25, { interval: '5m', from, to: from + 3600 });
    expect(fake.requestsTo('kalshi').at(-1)?.query.get('period_interval')).toBe('1');
    if (fiveMin.kind !== 'ohlcv') throw new Error('expected candles');
    expect(fiveMin.candles.every((c) => c.t % 300 === 0)).toBe(true);
    expect(new Set(fiveMin.candles.map((c) => c.t)).size).toBe(fiveMin.candles.length);
  });

  it('finds the series of a market it has not listed (market, then event)', async () => {
    const fresh = createVenueBClient(venuesConfig(fake), {
      rateLimiter: infra.rateLimiter,
      logger: capturingLogger().logger,
    });
    try {
      const h = await fresh.getPriceHistory(BTC, { interval: '1d', from: 1_795_000_000, to: 1_795_600_000 });
      expect(h.kind).toBe('ohlcv');
      expect(fake.requestsTo('kalshi', `/markets/${BTC}`).length).toBeGreaterThan(0);
      expect(fake.requestsTo('kalshi', '/events/KXBTCMAXY-27JUN30').length).toBeGreaterThan(0);
      expect(fake.requestsTo('kalshi', `/series/KXBTCMAXY/markets/${BTC}/candlesticks`).length).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });

  it('maps public trades: the taker bought its side, at its side’s price', async () => {
    const trades = await client.getPublicTrades(C25, { limit: 10, offset: 0 });
    expect(trades.map((t) => [t.venueTradeId, t.side, t.outcome, t.price, t.size])).toEqual([
      ['c1a7e5d2-6f0b-4a3e-9d41-2b8c7f0e1a01', 'buy', 'yes', 0.61, 25],
      ['c1a7e5d2-6f0b-4a3e-9d41-2b8c7f0e1a02', 'buy', 'no', 0.4, 10],
    ]);
    expect(trades[0]).toMatchObject({ venueTraderId: null, filledAt: new Date('2026-11-25T20:55:00Z') });
    const second = await client.getPublicTrades(C25, { limit: 1, offset: 1 });
    expect(second.map((t) => t.venueTradeId)).toEqual(['c1a7e5d2-6f0b-4a3e-9d41-2b8c7f0e1a02']);
  });

  it('has no holders to show', async () => {
    expect(await client.getHolders()).toMatchObject({ supported: false, holders: [] });
  });

  it('signs orders with RSA-PSS over timestamp, method and path; the fill comes back in 0..1 terms', async () => {
    fake.requireSignature(keys.publicPem);
    try {
      const r = await client.placeOrder({
        venueMarketId: C25,
        side: 'buy',
        outcome: 'yes',
        size: 5,
        orderType: 'market',
        clientOrderId: 'order-1',
      });
      expect(r.status).toBe('filled');
      expect(r.fills).toEqual([{ price: 0.62, size: 5, filledAt: expect.any(Date) }]);
      const post = fake.requestsTo('kalshi', '/portfolio/orders').at(-1)!;
      expect(post.method).toBe('POST');
      expect(post.wirePath).toMatch(/\/trade-api\/v2\/portfolio\/orders$/);
      expect(post.body).toMatchObject({
        ticker: C25,
        client_order_id: 'order-1',
        side: 'yes',
        action: 'buy',
        count: 5,
        type: 'market',
        time_in_force: 'immediate_or_cancel',
      });
      expect(post.headers['kalshi-access-key']).toBe('key-123');
      const ts = post.headers['kalshi-access-timestamp'] as string;
      expect(ts).toMatch(/^\d{13}$/);
      const ok = verify(
        'sha256',
        Buffer.from(`${ts}POST${post.wirePath}`),
        {
          key: createPublicKey(keys.publicPem),
          padding: constants.RSA_PKCS1_PSS_PADDING,
          saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
        },
        Buffer.from(post.headers['kalshi-access-signature'] as string, 'base64'),
      );
      expect(ok).toBe(true);

      // A NO limit buy below the NO ask is cancelled at once (immediate or cancel): cancelled, no fill.
      const rest = await client.placeOrder({
        venueMarketId: C25,
        side: 'buy',
        outcome: 'no',
        size: 2,
        orderType: 'limit',
        limitPrice: 0.3,
        clientOrderId: 'order-2',
      });
      expect(rest).toMatchObject({
        status: 'cancelled',
        fills: [],
        reason: 'venue_b canceled the order without a fill',
      });
      expect(fake.requestsTo('kalshi', '/portfolio/orders').at(-1)?.body).toMatchObject({
        no_price: 30,
        type: 'limit',
      });
    } finally {
      fake.requireSignature(null);
    }
  });

  it('is refused with a signature from another key, and refuses to trade without keys', async () => {
    fake.requireSignature(keyPair().publicPem);
    try {
      await expect(
        client.placeOrder({
          venueMarketId: C25,
          side: 'buy',
          outcome: 'yes',
          size: 1,
          orderType: 'market',
          clientOrderId: 'order-3',
        }),
      ).rejects.toBeInstanceOf(VenueUnavailableError);
    } finally {
      fake.requireSignature(null);
    }
    const keyless = createVenueBClient(venuesConfig(fake), {
      rateLimiter: infra.rateLimiter,
      logger: capturingLogger().logger,
    });
    try {
      expect(keyless.canTrade).toBe(false);
      const before = fake.requestsTo('kalshi', '/portfolio/orders').length;
      await expect(
        keyless.placeOrder({
          venueMarketId: C25,
          side: 'buy',
          outcome: 'yes',
          size: 1,
          orderType: 'market',
          clientOrderId: 'order-4',
        }),
      ).rejects.toThrow(/VENUE_B_API_KEY_ID/);
      expect(fake.requestsTo('kalshi', '/portfolio/orders')).toHaveLength(before);
    } finally {
      await keyless.close();
    }
  });
});
