import { generateKeyPairSync } from 'node:crypto';
import { startTestApp, type TestApp } from '../../support/app';
import { lastData, names, postStream } from '../../support/execution-stream';
import { startFakeVenues, type FakeVenues, type KalshiEventFixture } from '../../support/fake-venues';
import { fund } from '../../support/funding';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { openAccountStream, shapes, takeThrough } from './account-support';

/**
 * A live venue_b order (the venue's signed order API, a local server in its shapes) on the account
 * stream: accepted with its hold, submitted, then filled, every update with mode `live`.
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
let app: TestApp;
beforeAll(async () => {
  fake = await startFakeVenues();
  fake.data.venueB.events.push(listedAtVenue(marketB));
  fake.requireSignature(publicPem);
  app = await startTestApp(
    {
      VENUE_B_SOURCE: 'live',
      VENUE_B_API_URL: fake.kalshiUrl,
      VENUE_HTTP_TIMEOUT_MS: '3000',
      VENUE_B_API_KEY_ID: 'key-live',
      VENUE_B_PRIVATE_KEY: privatePem.replace(/\n/g, '\\n'),
    },
    {},
    pinned,
  );
});
afterAll(async () => {
  await app?.close();
  await fake.close();
});

it('streams a live venue_b order from its hold to its fill, every update with mode live', async () => {
  await fund(app, 'liv', 100);
  const sse = await openAccountStream(app, 'liv');
  const other = await openAccountStream(app, 'oli');
  try {
    const r = await postStream(
      `${app.url}/execute`,
      { mode: 'live', marketId: `venue_b:${marketB}`, side: 'buy', outcome: 'yes', size: 4 },
      await app.walletBearer('liv'),
    );
    expect(names(r)).toEqual(['accepted', 'quote', 'submitted', 'fill', 'completed']);
    const orderId = lastData(r).orderId;
    // The hold commits with the order's row, `submitted` on its own, then the fill's transaction.
    const opened = await takeThrough(sse, 'balance');
    const submitted = await takeThrough(sse, 'order');
    const settled = await takeThrough(sse, 'balance');
    expect(shapes(opened)).toEqual(['order:pending', 'balance']);
    expect(shapes(submitted)).toEqual(['order:submitted']);
    expect(shapes(settled)).toEqual(['order:filled', 'fill', 'position', 'balance']);
    const all = [...opened, ...submitted, ...settled];
    expect(all.every((u) => u.mode === 'live')).toBe(true);
    expect(all.filter((u) => u.order).every((u) => u.order!.id === orderId && u.order!.venue === 'venue_b')).toBe(true);
    expect(opened[1].balance!.held).toBeGreaterThan(0);
    expect(settled[3].balance!.held).toBe(0);
    expect(settled[2].position).toMatchObject({ size: 4, status: 'open', mode: 'live', venue: 'venue_b' });

    // The other user's stream heard none of it.
    await fund(app, 'oli', 3);
    const [own] = await takeThrough(other, 'balance');
    expect(own).toMatchObject({ kind: 'balance', mode: 'live', balance: { available: 3 } });
  } finally {
    sse.close();
    other.close();
  }
});
