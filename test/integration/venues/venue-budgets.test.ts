import { generateKeyPairSync } from 'node:crypto';
import { loadConfig } from '../../../src/config';
import { createLogger } from '../../../src/http/logger';
import { MemoryRateLimiter } from '../../../src/infra/memory-rate-limiter';
import { VenueUnavailableError } from '../../../src/venues';
import { createVenueAClient, createVenueBClient, venueLimiterKey, type VenueBClient } from '../../../src/venues/live';
import { http, startTestApp, type TestApp } from '../../support/app';
import { names, postStream } from '../../support/execution-stream';
import { startFakeVenues, type FakeVenues } from '../../support/fake-venues';
import { fund } from '../../support/funding';
import { gql } from '../../support/graphql';

/**
 * What anonymous reads may spend of a live venue's budget: books (and trades, holders, history)
 * are shared by every caller for about a second with one call in flight per key; venue-reading
 * fields are limited per client (`VENUE_READ_RATE_LIMIT`) while a venue is live; and live orders
 * have a budget of their own, so reads exhausting theirs never fail an order. The venues are the
 * fake venue server on port 0, whose requests are counted.
 */
const FED = 'KXFEDDECISION-26DEC-C25';
const BTC = 'KXBTCMAXY-27JUN30-T150000';

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
/** venue_b's order key settings; the fake venue checks the orders' signatures with the public half. */
const ORDER_KEYS = {
  VENUE_B_API_KEY_ID: 'key-live',
  VENUE_B_PRIVATE_KEY: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().replace(/\n/g, '\\n'),
};

let fake: FakeVenues;
beforeAll(async () => {
  fake = await startFakeVenues();
  fake.requireSignature(keys.publicKey.export({ type: 'spki', format: 'pem' }).toString());
});
afterAll(() => fake.close());

const liveEnv = (extra: Record<string, string> = {}) => ({
  ...fake.env,
  CATALOG_SYNC_MS: '0',
  VENUE_TRADES_POLL_MS: '3600000',
  VENUE_HTTP_RETRIES: '0',
  GRAPHQL_MAX_ALIASES: '300',
  GRAPHQL_MAX_TOKENS: '5000',
  ...extra,
});

const bookCalls = (ticker: string) => fake.requestsTo('kalshi', `/markets/${ticker}/orderbook`).length;

/** A query for `n` aliased books of one market. */
const books = (ticker: string, n: number, depth = 5) =>
  `{ market(venue: venue_b, marketId: "${ticker}") { ${Array.from(
    { length: n },
    (_, i) => `b${i}: orderBook(depth: ${depth}) { mid }`,
  ).join(' ')} } }`;

type BooksData = { market: Record<string, { mid: number | null } | null> };

describe('live venue reads, shared and limited per client', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(
      liveEnv({
        ...ORDER_KEYS,
        VENUE_READ_RATE_LIMIT: '230',
        VENUE_BREAKER_FAILURES: '2',
        VENUE_BREAKER_RESET_MS: '600000',
      }),
    );
  });
  afterAll(() => app.close());

  it('answers 200 aliased books of one market with one venue call', async () => {
    const before = bookCalls(FED);
    const r = await gql<BooksData>(app, books(FED, 200));
    expect(r.body.errors).toBeUndefined();
    const answers = Object.values(r.body.data!.market);
    expect(answers).toHaveLength(200);
    expect(answers.every((b) => b !== null && b.mid === answers[0]!.mid)).toBe(true);
    // One call; a second at most should the machine take longer than the one-second window.
    expect(bookCalls(FED) - before).toBeGreaterThanOrEqual(1);
    expect(bookCalls(FED) - before).toBeLessThanOrEqual(2);
  });

  it('shares a book between concurrent REST detail requests', async () => {
    const before = bookCalls(BTC);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => http(`${app.url}/api/markets/venue_b/${BTC}/detail?chartPoints=8`)),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(bookCalls(BTC) - before).toBeLessThanOrEqual(2);
  });

  it('refuses venue-reading fields beyond the per-client limit: rate_limited on GraphQL, 429 on REST', async () => {
    // 200 books and 5 detail screens (4 venue fields each) are spent: 10 of the 230 are left.
    const last = await gql<BooksData>(app, books(FED, 10, 3));
    expect(last.body.errors).toBeUndefined();
    expect(Object.values(last.body.data!.market)).toHaveLength(10);
    const over = await gql<BooksData>(app, books(FED, 3, 3));
    // A book is not nullable (nor is the market): the refused fields null the whole answer.
    expect(over.body.data).toBeNull();
    expect(over.body.errors!.length).toBeGreaterThan(0);
    expect(over.body.errors!.every((e) => e.extensions.code === 'rate_limited')).toBe(true);
    expect(over.body.errors![0].message).toMatch(/rate limit exceeded/);

    const rest = await http(`${app.url}/api/markets/venue_b/${FED}/detail?chartPoints=8`);
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual({ error: 'rate_limited', message: expect.stringMatching(/rate limit exceeded/) });
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);

    // Public fields of the same market still answer; a user is counted apart from the address.
    const catalog = await gql<{ market: { title: string } }>(
      app,
      `{ market(venue: venue_b, marketId: "${FED}") { title } }`,
    );
    expect(catalog.body.errors).toBeUndefined();
    const asUser = await http(`${app.url}/api/markets/venue_b/${FED}/detail?chartPoints=8`, {
      headers: await app.bearer('reader'),
    });
    expect(asUser.status).toBe(200);
  });

  it('places a live venue_b order while failing reads have opened the read circuit', async () => {
    const reader = await app.bearer('reader');
    fake.fault({ api: 'kalshi', method: 'GET', path: /\/orderbook$/ }, { kind: 'status', status: 500 }, 2);
    for (const depth of [7, 8]) {
      const failed = await gql(app, books(FED, 1, depth), {}, reader);
      expect(failed.body.errors?.[0].extensions.code).toBe('unavailable');
    }
    const requestsBefore = fake.requests.length;
    const fast = await gql(app, books(FED, 1, 9), {}, reader);
    expect(fast.body.errors?.[0].extensions.code).toBe('unavailable');
    expect(fake.requests.length).toBe(requestsBefore); // the read circuit is open: failed without a call

    await fund(app, 'owen', 100);
    const order = await postStream(
      `${app.url}/execute`,
      { mode: 'live', marketId: `venue_b:${FED}`, side: 'buy', outcome: 'yes', size: 1 },
      await app.walletBearer('owen'),
    );
    expect(order.status).toBe(200);
    expect(names(order)).toEqual(['accepted', 'quote', 'submitted', 'fill', 'completed']);
  });
});

describe('simulated venues', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ VENUE_READ_RATE_LIMIT: '5', GRAPHQL_MAX_ALIASES: '300', GRAPHQL_MAX_TOKENS: '5000' });
  });
  afterAll(() => app.close());

  it('have no budget to protect: venue-reading fields are not limited per client', async () => {
    const market = await app.services.db.prisma.market.findFirstOrThrow({
      where: { venue: 'venue_b', status: 'active' },
      orderBy: { id: 'asc' },
    });
    const r = await gql<BooksData>(app, books(market.venueMarketId, 30));
    expect(r.body.errors).toBeUndefined();
    expect(Object.values(r.body.data!.market).every((b) => b !== null)).toBe(true);
  });
});

describe('live orders have a venue budget of their own', () => {
  let app: TestApp;
  let venueB: VenueBClient;
  /** The venue_b client's limiter, on a clock that stands still: a spent budget stays spent. */
  const limiter = new MemoryRateLimiter({ now: () => 1_000_000 });
  beforeAll(async () => {
    const env = liveEnv({ ...ORDER_KEYS, VENUE_B_RATE_LIMIT: '5', VENUE_HTTP_TIMEOUT_MS: '2500' });
    venueB = createVenueBClient(loadConfig(env).venues, { rateLimiter: limiter, logger: createLogger('silent') });
    app = await startTestApp(env, {}, { venues: { venue_b: venueB } });
  });
  afterAll(async () => {
    await app.close();
    await venueB.close();
    limiter.close();
  });

  it('places a live venue_b order, with its quote, once reads have spent their whole budget', async () => {
    await fund(app, 'olive', 100);
    expect(await app.services.db.prisma.market.count({ where: { venue: 'venue_b', venueMarketId: FED } })).toBe(1);
    const reads = venueLimiterKey('venue_b', 'trade-api');
    const left = (await limiter.peek(reads, 5, 1_000)).remaining;
    if (left > 0) await limiter.hit(reads, 5, 1_000, left);
    // A read waits its timeout for a slot, then fails: the read budget is spent.
    const read = await gql(app, books(BTC, 1, 2));
    expect(read.body.errors?.[0]).toMatchObject({ extensions: { code: 'unavailable' } });

    const order = await postStream(
      `${app.url}/execute`,
      { mode: 'live', marketId: `venue_b:${FED}`, side: 'buy', outcome: 'yes', size: 2 },
      await app.walletBearer('olive'),
    );
    expect(order.status).toBe(200);
    expect(names(order)).toEqual(['accepted', 'quote', 'submitted', 'fill', 'completed']);
    expect(fake.requestsTo('kalshi', '/portfolio/orders').at(-1)?.body).toMatchObject({ ticker: FED, count: 2 });
  });
});

describe('venue_a: a live order reads its book on the CLOB order budget', () => {
  it('reads the book on the order budget while the read budget is spent', async () => {
    const limiter = new MemoryRateLimiter({ now: () => 1_000_000 });
    // A spent budget waits its window (10 s on this frozen clock): longer than one request may take (the timeout),
    // so the read fails at once; the timeout itself is wide, for the reads that succeed.
    const env = liveEnv({ VENUE_A_RATE_LIMIT: '3', VENUE_HTTP_TIMEOUT_MS: '3000' });
    const client = createVenueAClient(loadConfig(env).venues, { rateLimiter: limiter, logger: createLogger('silent') });
    try {
      const [event] = await client.listEvents();
      const market = event.markets[0].venueMarketId;
      await limiter.hit(venueLimiterKey('venue_a', 'clob'), 3, 10_000, 3);
      await expect(client.getOrderBook(market, 5)).rejects.toBeInstanceOf(VenueUnavailableError);
      const book = await client.getOrderBook(market, 5, { budget: 'order' });
      expect(book.bids.length).toBeGreaterThan(0);
      // Kept for the window: a read now is served without the spent budget.
      expect(await client.getOrderBook(market, 1)).toMatchObject({ bids: [book.bids[0]] });
    } finally {
      await client.close();
      limiter.close();
    }
  });
});
