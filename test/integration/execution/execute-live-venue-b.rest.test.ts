import { constants, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { startTestApp, type TestApp } from '../../support/app';
import { lastData, names, postStream } from '../../support/execution-stream';
import { startFakeVenues, type FakeVenues, type KalshiEventFixture } from '../../support/fake-venues';
import { fund } from '../../support/funding';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { orderRows } from './trading-helpers';

/**
 * venue_b live orders through the venue's signed order API (a local server in
 * the venue's shapes): with the key settings they are placed and streamed;
 * without them they are a 503 before the stream opens.
 */
const pinned = pinnedWorld();
const marketB = activeMatchedEvent(pinned.world).markets[0].venueMarketIds.venue_b!;
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privatePem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** The market the order names, listed by the venue with a 55¢ YES ask. */
function listedAtVenue(ticker: string): KalshiEventFixture {
  return {
    event_ticker: 'KXTEST-EVENT',
    series_ticker: 'KXTEST',
    title: 'A venue_b event',
    markets: [
      {
        ticker,
        event_ticker: 'KXTEST-EVENT',
        title: 'A venue_b market',
        status: 'active',
        yes_bid: 53,
        yes_ask: 55,
        last_price: 54,
        close_time: '2027-06-01T00:00:00Z',
      },
    ],
  };
}

let fake: FakeVenues;
beforeAll(async () => {
  fake = await startFakeVenues();
  fake.data.venueB.events.push(listedAtVenue(marketB));
  fake.requireSignature(publicPem);
});
afterAll(() => fake.close());

const venueBLive = (extra: Record<string, string> = {}) => ({
  VENUE_B_SOURCE: 'live',
  VENUE_B_API_URL: fake.kalshiUrl,
  VENUE_HTTP_TIMEOUT_MS: '3000',
  ...extra,
});

describe('venue_b live orders with the key settings', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(
      venueBLive({ VENUE_B_API_KEY_ID: 'key-live', VENUE_B_PRIVATE_KEY: privatePem.replace(/\n/g, '\\n') }),
      {},
      pinned,
    );
  });
  afterAll(() => app.close());

  it('places a signed order at the venue and streams it to its fills', async () => {
    await fund(app, 'vera', 100);
    const r = await postStream(
      `${app.url}/execute`,
      { mode: 'live', marketId: `venue_b:${marketB}`, side: 'buy', outcome: 'yes', size: 4 },
      await app.walletBearer('vera'),
    );
    expect(r.status).toBe(200);
    expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'fill', 'completed']);
    const orderId = lastData(r).orderId;

    const sent = fake.requestsTo('kalshi', '/portfolio/orders').at(-1)!;
    expect(sent.body).toMatchObject({
      ticker: marketB,
      client_order_id: orderId,
      side: 'yes',
      action: 'buy',
      count: 4,
      type: 'market',
    });
    const ts = sent.headers['kalshi-access-timestamp'] as string;
    expect(sent.headers['kalshi-access-key']).toBe('key-live');
    expect(
      verify(
        'sha256',
        Buffer.from(`${ts}POST${sent.wirePath}`),
        {
          key: createPublicKey(publicPem),
          padding: constants.RSA_PKCS1_PSS_PADDING,
          saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
        },
        Buffer.from(sent.headers['kalshi-access-signature'] as string, 'base64'),
      ),
    ).toBe(true);

    const { order, fills, entries } = await orderRows(app, orderId);
    const venueOrderId = Object.keys(fake.data.venueB.orders).find(
      (id) => fake.data.venueB.orders[id].client_order_id === orderId,
    );
    expect(order).toMatchObject({ venue: 'venue_b', mode: 'live', state: 'filled', externalOrderId: venueOrderId });
    expect(fills.map((f) => [f.priceMicros, f.sizeMicros])).toEqual([[550_000n, 4_000_000n]]);
    expect(fills[0].feeMicros).toBeGreaterThan(0n);
    // The most the order could cost was held, then released against its cost and fee, in USD.
    expect(entries.map((e) => [e.kind, e.currency])).toEqual([
      ['order_hold', 'USD'],
      ['order_release', 'USD'],
      ['trade_buy', 'USD'],
      ['trading_fee', 'USD'],
    ]);
    expect((await app.services.get(LedgerService).balance('vera')).held).toBe(0n);
    expect(await app.services.get(LedgerService).audit()).toEqual([]);
  });
});

describe('venue_b live orders without the key settings', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(venueBLive(), {}, pinned);
  });
  afterAll(() => app.close());

  it('answers 503 before any stream or order, and sends nothing to the venue', async () => {
    await fund(app, 'walt', 100);
    const before = fake.requestsTo('kalshi', '/portfolio/orders').length;
    const r = await postStream(
      `${app.url}/execute`,
      { mode: 'live', marketId: `venue_b:${marketB}`, side: 'buy', outcome: 'yes', size: 1 },
      await app.walletBearer('walt'),
    );
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ error: 'unavailable' });
    expect(JSON.stringify(r.body)).toMatch(/VENUE_B_API_KEY_ID/);
    expect(fake.requestsTo('kalshi', '/portfolio/orders')).toHaveLength(before);
    expect(await app.services.db.prisma.order.count({ where: { userId: 'walt' } })).toBe(0);
  });
});
