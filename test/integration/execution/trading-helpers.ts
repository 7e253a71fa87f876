import { generateKeyPairSync } from 'node:crypto';
import { startTestApp, type TestApp } from '../../support/app';
import { startFakeVenues, type FakeVenues } from '../../support/fake-venues';
import { startFakeUpstream, type FakeUpstream, type UpstreamRequest } from '../../support/fake-upstream';
import type { PinnedWorld } from '../../support/pinned-world';

/**
 * An app over the pinned world whose venue_a live orders go to a fake execution
 * service (a 422 refusal for every call until a test serves it), polled every 10 ms; `env`
 * adds settings. Close the app, then the service.
 */
export async function startWithExecutionService(
  pinned: PinnedWorld,
  env: Record<string, string> = {},
): Promise<{ app: TestApp; exec: FakeUpstream }> {
  // Until a test says otherwise the service refuses every call (a 4xx: it took nothing, so a submit
  // fails with a 502 before the stream; a 5xx would leave the outcome unknown).
  const exec = await startFakeUpstream(() => ({ status: 422, body: { error: 'refused' } }));
  const app = await startTestApp({ EXECUTION_SERVICE_URL: exec.url, EXECUTION_POLL_MS: '10', ...env }, {}, pinned);
  return { app, exec };
}

/** A request to the execution service that submits an order. */
export const isOrderCall = (r: UpstreamRequest) => r.method === 'POST' && r.path === '/orders';

/** Rows of one order and the user's ledger, for consistency checks. */
export async function orderRows(app: TestApp, orderId: string) {
  const prisma = app.services.db.prisma;
  const order = await prisma.order.findUnique({ where: { id: orderId } });
  const fills = await prisma.fill.findMany({ where: { orderId }, orderBy: { seq: 'asc' } });
  const entries = await prisma.ledgerEntry.findMany({
    where: { reference: `order:${orderId}` },
    orderBy: { id: 'asc' },
  });
  return { order, fills, entries };
}

/** A position equals its fills: size = Σ buys − Σ sells over every order of it. */
export async function positionMatchesFills(
  app: TestApp,
  positionId: string,
): Promise<{ size: bigint; fromFills: bigint }> {
  const prisma = app.services.db.prisma;
  const position = await prisma.position.findUniqueOrThrow({ where: { id: positionId } });
  const orders = await prisma.order.findMany({ where: { positionId }, include: { fills: true } });
  let fromFills = 0n;
  for (const o of orders) for (const f of o.fills) fromFills += o.side === 'buy' ? f.sizeMicros : -f.sizeMicros;
  return { size: position.sizeMicros, fromFills };
}

/**
 * A live venue_b (a local server in the venue's shapes, see fake-venues.ts) listing `tickers`
 * at a 53¢ YES bid and a 55¢ YES ask, requiring signed order requests, and the settings that make
 * an app place its venue_b live orders there: where the simulated venue_b would send a live order
 * to the paper account, this is the venue that trades it in USD. Close the app, then `fake`.
 */
export async function startLiveVenueB(tickers: readonly string[]): Promise<{
  fake: FakeVenues;
  env: Record<string, string>;
}> {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const fake = await startFakeVenues();
  fake.requireSignature(keys.publicKey.export({ type: 'spki', format: 'pem' }).toString());
  fake.data.venueB.events.push({
    event_ticker: 'KXTEST-EVENT',
    series_ticker: 'KXTEST',
    title: 'A venue_b event',
    markets: tickers.map((ticker) => ({
      ticker,
      event_ticker: 'KXTEST-EVENT',
      title: `A venue_b market ${ticker}`,
      status: 'active',
      yes_bid: 53,
      yes_ask: 55,
      last_price: 54,
      close_time: '2027-06-01T00:00:00Z',
    })),
  });
  const privatePem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return {
    fake,
    env: {
      VENUE_B_SOURCE: 'live',
      VENUE_B_API_URL: fake.kalshiUrl,
      VENUE_HTTP_TIMEOUT_MS: '3000',
      VENUE_B_API_KEY_ID: 'key-live',
      VENUE_B_PRIVATE_KEY: privatePem.replace(/\n/g, '\\n'),
    },
  };
}
