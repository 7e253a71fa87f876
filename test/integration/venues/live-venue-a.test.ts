import type { Infra } from '../../../src/infra';
import { createVenueAClient, VenueMarketNotFoundError, VenueUnavailableError } from '../../../src/venues';
import type { VenueAClient } from '../../../src/venues/live';
import { startFakeVenues, type FakeVenues } from '../../support/fake-venues';
import { capturingLogger, testInfra, venuesConfig } from './live-clients.support';

const FED_25 = '0x1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f801';
const FED_25_YES = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
const FED_25_NO = '52114319501245915516055106046884209969926127482827954674443846427813813222426';
const BTC = '0x3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a23';

describe('venue_a live client (Gamma, CLOB, Data API shapes)', () => {
  let fake: FakeVenues;
  let infra: Infra;
  let client: VenueAClient;

  beforeAll(async () => {
    fake = await startFakeVenues();
    infra = await testInfra();
    client = createVenueAClient(venuesConfig(fake), {
      rateLimiter: infra.rateLimiter,
      logger: capturingLogger().logger,
      tuning: { pageSize: 2 },
    });
  });
  afterAll(async () => {
    await client.close();
    await infra.close();
    await fake.close();
  });

  it('lists every open event by offset paging, with markets, exact prices and outcome token ids', async () => {
    fake.requests.length = 0;
    const events = await client.listEvents();
    const pages = fake.requestsTo('gamma', '/events');
    expect(pages.map((r) => r.query.get('offset'))).toEqual(['0', '2', '4']);
    expect(pages.every((r) => r.query.get('limit') === '2' && r.query.get('closed') === 'false')).toBe(true);
    expect(events.map((e) => e.venueEventId)).toEqual(['90101', '90102', '90103', '90104']);

    const fed = events[0];
    expect(fed).toMatchObject({
      venue: 'venue_a',
      title: 'Fed decision in December 2026?',
      category: 'economics',
      closeTime: new Date('2026-12-16T19:00:00Z'),
    });
    expect(fed.markets).toHaveLength(2);
    expect(fed.markets[0]).toMatchObject({
      venueMarketId: FED_25,
      venueEventId: '90101',
      title: 'Will the Fed cut rates by 25 bps in December 2026?',
      status: 'active',
      outcomes: ['Yes', 'No'],
      bestBid: 0.61,
      bestAsk: 0.62,
      lastPrice: 0.615,
      volume: 6543210.123456,
      volume24h: 98765.4321,
      liquidity: 312345.67,
      outcomeTokenIds: { yes: FED_25_YES, no: FED_25_NO },
    });
    // The closed market of an open event is listed as closed, without quotes.
    const album = events[2].markets;
    expect(album.map((m) => m.status)).toEqual(['active', 'closed']);
    expect(album[1]).toMatchObject({ bestBid: null, bestAsk: null });
    expect(events[1].category).toBe('crypto');
    expect(events[3].category).toBe('sports');
  });

  it('leaves out an event without a binary market', async () => {
    fake.data.venueA.events.push({ id: '90199', title: 'Nothing to trade', active: true, closed: false, markets: [] });
    try {
      expect((await client.listEvents()).map((e) => e.venueEventId)).not.toContain('90199');
    } finally {
      fake.data.venueA.events.pop();
    }
  });

  it('reads the YES token book best level first, merging the CLOB lists', async () => {
    const book = await client.getOrderBook(FED_25);
    expect(fake.requestsTo('clob', '/book').at(-1)?.query.get('token_id')).toBe(FED_25_YES);
    expect(book.bids).toEqual([
      { price: 0.61, size: 250 },
      { price: 0.605, size: 820.5 },
      { price: 0.58, size: 1500 },
    ]);
    expect(book.asks).toEqual([
      { price: 0.62, size: 300.25 },
      { price: 0.627, size: 410 },
      { price: 0.65, size: 2000 },
    ]);
    const top = await client.getOrderBook(FED_25, 1);
    expect(top.bids).toEqual([{ price: 0.61, size: 250 }]);
    expect(top.asks).toEqual([{ price: 0.62, size: 300.25 }]);
  });

  it('looks a market it has not listed up on Gamma, and says which market is unknown', async () => {
    const fresh = createVenueAClient(venuesConfig(fake), {
      rateLimiter: infra.rateLimiter,
      logger: capturingLogger().logger,
    });
    try {
      const book = await fresh.getOrderBook(BTC);
      expect(book.bids[0]).toEqual({ price: 0.21, size: 300 });
      expect(book.asks[0]).toEqual({ price: 0.23, size: 300 });
      expect(fake.requestsTo('gamma', '/markets').at(-1)?.query.get('condition_ids')).toBe(BTC);
      await expect(fresh.getOrderBook('0xdeadbeef')).rejects.toBeInstanceOf(VenueMarketNotFoundError);
    } finally {
      await fresh.close();
    }
  });

  it('serves price points from /prices-history at the interval fidelity', async () => {
    const from = 1_795_600_000;
    const to = from + 6 * 3600;
    const h = await client.getPriceHistory(FED_25, { interval: '1h', from, to });
    const req = fake.requestsTo('clob', '/prices-history').at(-1)!;
    expect(req.query.get('market')).toBe(FED_25_YES);
    expect(req.query.get('fidelity')).toBe('60');
    expect(h.kind).toBe('points');
    if (h.kind !== 'points') return;
    expect(h.points.length).toBe(6);
    for (const p of h.points) {
      expect(p.t).toBeGreaterThanOrEqual(from);
      expect(p.t).toBeLessThanOrEqual(to);
      expect(p.p).toBeGreaterThan(0.5);
      expect(p.p).toBeLessThan(0.7);
    }
  });

  it('maps Data API trades: outcome by token, side, price, wallet and a stable id', async () => {
    const trades = await client.getPublicTrades(FED_25, { limit: 10, offset: 0 });
    expect(fake.requestsTo('data', '/trades').at(-1)?.query.get('market')).toBe(FED_25);
    expect(trades).toHaveLength(2);
    expect(trades[0]).toMatchObject({
      venue: 'venue_a',
      venueMarketId: FED_25,
      venueTraderId: '0x56687bf447db6ffa42ffe2204a05edaa20f55839',
      side: 'buy',
      outcome: 'yes',
      price: 0.615,
      size: 120,
      filledAt: new Date(1_795_636_500 * 1000),
    });
    expect(trades[1]).toMatchObject({ side: 'sell', outcome: 'no', price: 0.38, size: 40.5 });
    expect(new Set(trades.map((t) => t.venueTradeId)).size).toBe(2);
    const page2 = await client.getPublicTrades(FED_25, { limit: 1, offset: 1 });
    expect(page2.map((t) => t.venueTradeId)).toEqual([trades[1].venueTradeId]);
  });

  it('lists holders of both outcomes, largest first', async () => {
    const r = await client.getHolders(FED_25, 10);
    expect(r.supported).toBe(true);
    expect(r.holders).toEqual([
      { wallet: '0x56687bf447db6ffa42ffe2204a05edaa20f55839', outcome: 'yes', size: 15234.5, avgPrice: null },
      { wallet: '0x9d84ce0306f8551e02efef1680475fc0f1dc1344', outcome: 'no', size: 9100.25, avgPrice: null },
      { wallet: '0x0e5f0f5f2e1f4b7c8a9d0e1f2a3b4c5d6e7f8091', outcome: 'yes', size: 800, avgPrice: null },
    ]);
    expect((await client.getHolders(FED_25, 1)).holders).toHaveLength(1);
  });

  it('leaves orders to the execution service', async () => {
    await expect(
      client.placeOrder({
        venueMarketId: FED_25,
        side: 'buy',
        outcome: 'yes',
        size: 1,
        orderType: 'market',
        clientOrderId: 'x',
      }),
    ).rejects.toBeInstanceOf(VenueUnavailableError);
  });
});
