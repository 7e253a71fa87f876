import { createVenueAClient, createVenueBClient, type PublicTrade } from '../../../src/venues';
import { waitFor } from '../../support/wait';
import { capturingLogger, venuesConfig, withFakeVenues } from './live-clients.support';

const C25 = 'KXFEDDECISION-26DEC-C25';
const NYC = 'KXHIGHNY-26DEC01-T50';
const BTC_A = '0x3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a23';

describe('live trade feeds by polling', () => {
  const ctx = withFakeVenues();

  it('hands on each new venue_b trade once, oldest first, and survives a failed poll', async () => {
    const log = capturingLogger();
    const client = createVenueBClient(venuesConfig(ctx.fake, { VENUE_HTTP_RETRIES: '0' }), {
      rateLimiter: ctx.infra.rateLimiter,
      logger: log.logger,
    });
    const got: PublicTrade[] = [];
    const off = client.onTrade((t) => got.push(t));
    try {
      await client.pollTradesOnce(); // learns what is already on the tape
      expect(got).toEqual([]);
      const first = ctx.fake.addTrade('venue_b', { venueMarketId: C25, outcome: 'yes', price: 0.62, size: 3 });
      const second = ctx.fake.addTrade('venue_b', { venueMarketId: NYC, outcome: 'no', price: 0.57, size: 4 });
      await client.pollTradesOnce();
      await client.pollTradesOnce();
      expect(got.map((t) => t.venueTradeId)).toEqual([first, second]);
      expect(got[1]).toMatchObject({ venueMarketId: NYC, side: 'buy', outcome: 'no', price: 0.57, size: 4 });

      ctx.fake.fault({ api: 'kalshi', path: '/markets/trades' }, { kind: 'status', status: 500 });
      await expect(client.pollTradesOnce()).resolves.toBeUndefined();
      expect(log.lines.some((l) => /venue_b trade poll failed/.test(l))).toBe(true);
      const third = ctx.fake.addTrade('venue_b', { venueMarketId: C25, outcome: 'no', price: 0.39, size: 1 });
      await client.pollTradesOnce();
      expect(got.map((t) => t.venueTradeId)).toEqual([first, second, third]);
    } finally {
      off();
      await client.close();
    }
  });

  // That it stops when nobody listens is read from the timers on a fake clock: unit/venues/live/trade-poller.test.ts.
  it('polls venue_a on its interval while someone listens', async () => {
    const client = createVenueAClient(venuesConfig(ctx.fake, { VENUE_TRADES_POLL_MS: '100' }), {
      rateLimiter: ctx.infra.rateLimiter,
      logger: capturingLogger().logger,
    });
    const got: PublicTrade[] = [];
    const off = client.onTrade((t) => got.push(t));
    try {
      await waitFor(() => ctx.fake.requestsTo('data', '/trades').length > 0, 'the first poll');
      const id = ctx.fake.addTrade('venue_a', {
        venueMarketId: BTC_A,
        outcome: 'yes',
        side: 'sell',
        price: 0.21,
        size: 7,
        wallet: '0xAbC0000000000000000000000000000000000001',
      });
      await waitFor(() => got.length === 1, 'the trade arrives through the timer');
      expect(got[0]).toMatchObject({
        venue: 'venue_a',
        venueMarketId: BTC_A,
        side: 'sell',
        outcome: 'yes',
        price: 0.21,
        size: 7,
        venueTraderId: '0xabc0000000000000000000000000000000000001',
      });
      expect(got[0].venueTradeId).toContain(id);
    } finally {
      off();
      await client.close();
    }
  });
});
