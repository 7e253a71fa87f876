import { generateKeyPairSync } from 'node:crypto';
import net from 'node:net';
import { createVenueBClient, VenueOutcomeUnknownError, VenueUnavailableError } from '../../../src/venues';
import { venueLimiterKey } from '../../../src/venues/live';
import { maybeSent } from '../../../src/upstreams/maybe-sent';
import { capturingLogger, testInfra, venuesConfig, withFakeVenues } from './live-clients.support';

/**
 * A failed call that acts at the venue (a venue_b order) is told apart by whether the venue may
 * have taken it: never sent (connection refused, the breaker or the rate limit refusing) or
 * refused by the venue (4xx) is a plain `VenueUnavailableError`; written and then cut (a timeout,
 * a reset), a 5xx, or a 2xx that cannot be read is a `VenueOutcomeUnknownError`. The fake venue
 * takes the order, or not, as each test says.
 */
const C25 = 'KXFEDDECISION-26DEC-C25';
const ORDERS = '/portfolio/orders';
const testPem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a venue_b order whose call fails', () => {
  const ctx = withFakeVenues();

  function venueB(env: Record<string, string> = {}) {
    return createVenueBClient(
      venuesConfig(ctx.fake, {
        VENUE_B_API_KEY_ID: 'k',
        VENUE_B_PRIVATE_KEY: testPem,
        VENUE_HTTP_RETRIES: '0',
        ...env,
      }),
      { rateLimiter: ctx.infra.rateLimiter, logger: capturingLogger().logger },
    );
  }
  let seq = 0;
  const order = () => ({
    venueMarketId: C25,
    side: 'buy' as const,
    outcome: 'yes' as const,
    size: 2,
    orderType: 'market' as const,
    clientOrderId: `sent-${(seq += 1)}`,
  });
  /** Whether the venue holds an order with this client order id. */
  const taken = (clientOrderId: string) =>
    Object.values(ctx.fake.data.venueB.orders).some((o) => o.client_order_id === clientOrderId);
  /** What placing `o` fails with. */
  async function failure(client: ReturnType<typeof venueB>, o = order()): Promise<Error> {
    const err = await client.placeOrder(o).then(
      () => null,
      (e: Error) => e,
    );
    if (!err) throw new Error('the order was expected to fail');
    return err;
  }

  it('connection refused: never sent, a plain VenueUnavailableError', async () => {
    const port = await closedPort();
    const client = venueB({ VENUE_B_API_URL: `http://127.0.0.1:${port}/trade-api/v2` });
    try {
      const err = await failure(client);
      expect(err).toBeInstanceOf(VenueUnavailableError);
      expect(err).not.toBeInstanceOf(VenueOutcomeUnknownError);
      expect(err.message).toMatch(/ECONNREFUSED.*before the request was sent/);
    } finally {
      await client.close();
    }
  });

  it('taken by the venue, then the connection reset: the outcome is unknown', async () => {
    const client = venueB();
    try {
      ctx.fake.fault({ api: 'kalshi', method: 'POST', path: ORDERS }, { kind: 'lost', then: 'reset' });
      const o = order();
      const err = await failure(client, o);
      expect(err).toBeInstanceOf(VenueOutcomeUnknownError);
      expect(taken(o.clientOrderId)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('taken by the venue, then no answer within the timeout: the outcome is unknown', async () => {
    const client = venueB({ VENUE_HTTP_TIMEOUT_MS: '300' });
    try {
      ctx.fake.fault({ api: 'kalshi', method: 'POST', path: ORDERS }, { kind: 'lost', then: 'hang' });
      const o = order();
      const err = await failure(client, o);
      expect(err).toBeInstanceOf(VenueOutcomeUnknownError);
      expect(err.message).toMatch(/no answer within 300 ms/);
      expect(taken(o.clientOrderId)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('a 5xx, whether or not the venue took it: the outcome is unknown, and the order is never sent again', async () => {
    const client = venueB({ VENUE_HTTP_RETRIES: '2' });
    try {
      ctx.fake.fault({ api: 'kalshi', method: 'POST', path: ORDERS }, { kind: 'status', status: 502 });
      const before = ctx.fake.requestsTo('kalshi', ORDERS).length;
      const err = await failure(client);
      expect(err).toBeInstanceOf(VenueOutcomeUnknownError);
      expect(err.message).toMatch(/answered 502/);
      expect(ctx.fake.requestsTo('kalshi', ORDERS)).toHaveLength(before + 1);
    } finally {
      await client.close();
    }
  });

  it('a 2xx whose body is unreadable: the venue took it, the outcome is unknown', async () => {
    const client = venueB();
    try {
      ctx.fake.fault({ api: 'kalshi', method: 'POST', path: ORDERS }, { kind: 'malformed' });
      expect(await failure(client)).toBeInstanceOf(VenueOutcomeUnknownError);
    } finally {
      await client.close();
    }
  });

  it('a 4xx the venue answered: refused, a plain VenueUnavailableError', async () => {
    const client = venueB();
    try {
      ctx.fake.fault({ api: 'kalshi', method: 'POST', path: ORDERS }, { kind: 'status', status: 400 });
      const err = await failure(client);
      expect(err).toBeInstanceOf(VenueUnavailableError);
      expect(err).not.toBeInstanceOf(VenueOutcomeUnknownError);
      expect(err.message).toMatch(/refused the request \(400\)/);
    } finally {
      await client.close();
    }
  });

  it('the breaker open: refused before sending, a plain VenueUnavailableError', async () => {
    const client = venueB({ VENUE_BREAKER_FAILURES: '1', VENUE_BREAKER_RESET_MS: '3600000' });
    try {
      ctx.fake.fault({ api: 'kalshi', method: 'POST', path: ORDERS }, { kind: 'status', status: 503 });
      expect(await failure(client)).toBeInstanceOf(VenueOutcomeUnknownError);
      const before = ctx.fake.requestsTo('kalshi', ORDERS).length;
      const err = await failure(client);
      expect(err).not.toBeInstanceOf(VenueOutcomeUnknownError);
      expect(err.message).toMatch(/circuit open/);
      expect(ctx.fake.requestsTo('kalshi', ORDERS)).toHaveLength(before);
    } finally {
      await client.close();
    }
  });

  it('the order budget spent: refused before sending, a plain VenueUnavailableError', async () => {
    // A limiter of its own (the other tests' orders spend the shared one), its one order a second spent.
    const infra = await testInfra();
    const client = createVenueBClient(
      venuesConfig(ctx.fake, {
        VENUE_B_API_KEY_ID: 'k',
        VENUE_B_PRIVATE_KEY: testPem,
        VENUE_B_ORDER_RATE_LIMIT: '1',
        VENUE_HTTP_TIMEOUT_MS: '100',
      }),
      { rateLimiter: infra.rateLimiter, logger: capturingLogger().logger },
    );
    try {
      expect((await infra.rateLimiter.hit(venueLimiterKey('venue_b', 'trade-api-orders'), 1, 1_000)).allowed).toBe(
        true,
      );
      const before = ctx.fake.requestsTo('kalshi', ORDERS).length;
      const err = await failure(client);
      expect(err).not.toBeInstanceOf(VenueOutcomeUnknownError);
      expect(err.message).toMatch(/local rate limit reached/);
      expect(ctx.fake.requestsTo('kalshi', ORDERS)).toHaveLength(before);
    } finally {
      await client.close();
      await infra.close();
    }
  });

  it('a read cut the same ways is a plain VenueUnavailableError: it has no effect at the venue', async () => {
    const client = venueB();
    try {
      ctx.fake.fault({ api: 'kalshi', path: `/markets/${C25}/orderbook` }, { kind: 'status', status: 502 });
      const err = await client.getOrderBook(C25, undefined, { budget: 'order' }).then(
        () => null,
        (e: Error) => e,
      );
      expect(err).toBeInstanceOf(VenueUnavailableError);
      expect(err).not.toBeInstanceOf(VenueOutcomeUnknownError);
    } finally {
      await client.close();
    }
  });
});

describe('maybeSent', () => {
  const withCode = (code: string) => Object.assign(new Error(code), { code });

  it('is false for a request undici never handed to a socket, whatever the error (aborted while queued too)', () => {
    for (const err of [withCode('ECONNREFUSED'), withCode('ECONNRESET'), new DOMException('t', 'TimeoutError')])
      expect(maybeSent(err, false)).toBe(false);
  });

  it('is true once it was written, unless the code is of the connection phase', () => {
    for (const err of [withCode('ECONNRESET'), withCode('UND_ERR_SOCKET'), new DOMException('t', 'TimeoutError')])
      expect(maybeSent(err, true)).toBe(true);
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'UND_ERR_CONNECT_TIMEOUT'])
      expect(maybeSent(withCode(code), true)).toBe(false);
  });
});
