import { generateKeyPairSync } from 'node:crypto';
import { createVenueAClient, createVenueBClient, VenueUnavailableError } from '../../../src/venues';
import { shiftedWallClock } from '../../support/clock';
import { capturingLogger, venuesConfig, withFakeVenues } from './live-clients.support';

const C25 = 'KXFEDDECISION-26DEC-C25';
const FED_25 = '0x1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f801';

describe('the venues HTTP layer against misbehaving venues', () => {
  const ctx = withFakeVenues();

  function venueB(env: Record<string, string> = {}) {
    const log = capturingLogger();
    const client = createVenueBClient(venuesConfig(ctx.fake, env), {
      rateLimiter: ctx.infra.rateLimiter,
      logger: log.logger,
      tuning: { backoffMs: 5 },
    });
    return { client, lines: log.lines };
  }

  it('waits out a 429 for its Retry-After, then answers', async () => {
    const { client } = venueB();
    try {
      ctx.fake.fault({ api: 'kalshi', path: '/events' }, { kind: 'status', status: 429, retryAfter: 1 });
      const before = ctx.fake.requestsTo('kalshi', '/events').length;
      const events = await client.listEvents();
      expect(events).toHaveLength(4);
      const [limited, retried] = ctx.fake.requestsTo('kalshi', '/events').slice(before);
      // A lower bound only: the retry came no sooner than the venue asked.
      expect(retried.at - limited.at).toBeGreaterThanOrEqual(950);
    } finally {
      await client.close();
    }
  });

  it('fails at once on a Retry-After longer than it may wait', async () => {
    const { client } = venueB();
    try {
      ctx.fake.fault({ api: 'kalshi' }, { kind: 'status', status: 429, retryAfter: 3600 });
      await expect(client.getOrderBook(C25)).rejects.toBeInstanceOf(VenueUnavailableError);
    } finally {
      await client.close();
    }
  });

  it('gives up on a venue that does not answer within the timeout, and retries a GET that timed out', async () => {
    const { client } = venueB({ VENUE_HTTP_TIMEOUT_MS: '300', VENUE_HTTP_RETRIES: '0' });
    try {
      ctx.fake.fault({ api: 'kalshi', path: `/markets/${C25}/orderbook` }, { kind: 'hang' });
      await expect(client.getOrderBook(C25)).rejects.toThrow(/no answer within 300 ms/);
    } finally {
      await client.close();
    }
    // The retry must answer within the timeout too: a wide one, which the hanging attempt waits out.
    const patient = venueB({ VENUE_HTTP_TIMEOUT_MS: '2000', VENUE_HTTP_RETRIES: '1' });
    try {
      ctx.fake.fault({ api: 'kalshi', path: `/markets/${C25}/orderbook` }, { kind: 'hang' });
      const book = await patient.client.getOrderBook(C25);
      expect(book.bids[0]).toEqual({ price: 0.6, size: 75 });
    } finally {
      await patient.client.close();
    }
  });

  it('retries a GET after a 5xx or a dropped connection, but never re-sends an order', async () => {
    const { client } = venueB({ VENUE_B_API_KEY_ID: 'k', VENUE_B_PRIVATE_KEY: testPem });
    try {
      ctx.fake.fault({ api: 'kalshi', path: '/markets/trades' }, { kind: 'status', status: 503 });
      ctx.fake.fault({ api: 'kalshi', path: '/markets/trades' }, { kind: 'reset' });
      const trades = await client.getPublicTrades(C25, { limit: 5, offset: 0 });
      expect(trades).toHaveLength(2);

      ctx.fake.fault({ api: 'kalshi', path: '/portfolio/orders' }, { kind: 'status', status: 502 });
      const before = ctx.fake.requestsTo('kalshi', '/portfolio/orders').length;
      await expect(
        client.placeOrder({
          venueMarketId: C25,
          side: 'buy',
          outcome: 'yes',
          size: 1,
          orderType: 'market',
          clientOrderId: 'no-resend',
        }),
      ).rejects.toBeInstanceOf(VenueUnavailableError);
      expect(ctx.fake.requestsTo('kalshi', '/portfolio/orders')).toHaveLength(before + 1);
    } finally {
      await client.close();
    }
  });

  it('logs one clear line for a malformed payload and reports the venue unavailable', async () => {
    const { client, lines } = venueB();
    try {
      ctx.fake.fault({ api: 'kalshi', path: '/events' }, { kind: 'malformed' });
      await expect(client.listEvents()).rejects.toBeInstanceOf(VenueUnavailableError);
      ctx.fake.fault({ api: 'kalshi', path: '/events' }, { kind: 'json', body: { events: [{ title: 7 }] } });
      await expect(client.listEvents()).rejects.toThrow(/malformed payload/);
      const logged = lines.map((l) => JSON.parse(l) as { msg: string; venue: string });
      expect(logged.filter((l) => /malformed payload/.test(l.msg))).toHaveLength(2);
      expect(logged[0]).toMatchObject({ venue: 'venue_b' });
      expect(logged[0].msg).toMatch(/not JSON/);
      expect(logged[1].msg).toMatch(/events\.0\./);
    } finally {
      await client.close();
    }
  });

  it('opens the breaker after repeated failures, failing fast, and closes it once the venue recovers', async () => {
    const log = capturingLogger();
    const RESET_MS = 60_000;
    const client = createVenueAClient(
      venuesConfig(ctx.fake, {
        VENUE_HTTP_RETRIES: '0',
        VENUE_BREAKER_FAILURES: '2',
        VENUE_BREAKER_RESET_MS: String(RESET_MS),
      }),
      { rateLimiter: ctx.infra.rateLimiter, logger: log.logger },
    );
    // The breaker reads the wall clock: it is moved past the reset delay when the test says.
    const clock = shiftedWallClock();
    try {
      await client.listEvents(); // learns the markets' tokens
      ctx.fake.fault({ api: 'clob', path: '/book' }, { kind: 'status', status: 500 }, 2);
      await expect(client.getOrderBook(FED_25)).rejects.toThrow(/answered 500/);
      await expect(client.getOrderBook(FED_25)).rejects.toThrow(/answered 500/);
      const calls = ctx.fake.requestsTo('clob', '/book').length;
      await expect(client.getOrderBook(FED_25)).rejects.toThrow(/circuit open/);
      expect(ctx.fake.requestsTo('clob', '/book')).toHaveLength(calls);
      // Other APIs of the venue have breakers of their own.
      expect((await client.getPublicTrades(FED_25, { limit: 1, offset: 0 })).length).toBe(1);
      // Within the reset delay it still fails fast; after it one probe goes through, succeeds, and the breaker closes.
      clock.advance(RESET_MS / 2);
      await expect(client.getOrderBook(FED_25)).rejects.toThrow(/circuit open/);
      expect(ctx.fake.requestsTo('clob', '/book')).toHaveLength(calls);
      clock.advance(RESET_MS / 2 + 1);
      const book = await client.getOrderBook(FED_25);
      expect(book.bids[0].price).toBe(0.61);
      expect(ctx.fake.requestsTo('clob', '/book')).toHaveLength(calls + 1);
      expect(log.lines.filter((l) => /venue_a clob keeps failing/.test(l))).toHaveLength(1);
      expect(log.lines.some((l) => /venue_a clob answers again/.test(l))).toBe(true);
    } finally {
      clock.restore();
      await client.close();
    }
  });

  it('stays under the venue rate limit through the shared limiter', async () => {
    // No read cache: the three asks must each be a venue call.
    const { client } = venueB({ VENUE_B_RATE_LIMIT: '2', VENUE_READ_CACHE_MS: '0' });
    try {
      const before = ctx.fake.requestsTo('kalshi').length;
      await Promise.all([0, 1, 2].map(() => client.getOrderBook(C25)));
      const sent = ctx.fake.requestsTo('kalshi').slice(before);
      expect(sent).toHaveLength(3);
      // Two per second: the third went out no sooner than a second after the first.
      expect(sent[2].at - sent[0].at).toBeGreaterThanOrEqual(900);
    } finally {
      await client.close();
    }
  });
});

// A throwaway RSA key (the venue_b client only needs one that parses; this fake does not check signatures here).
const testPem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
