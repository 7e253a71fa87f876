import { http, startTestApp, type TestApp } from '../../support/app';
import { postPaymentEvent } from '../../support/payments';

// Webhook secrets unset: both webhooks answer 500 (and do nothing).
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

it('POST /webhooks/payments → 500 when PAYMENT_WEBHOOK_SECRET is unset', async () => {
  const r = await postPaymentEvent(app.url, { id: 'evt_1', type: 'x', data: {} }, { secret: 'anything' });
  expect(r.status).toBe(500);
  expect(r.body).toEqual({ error: 'internal', message: 'webhook secret not configured' });
  expect(await app.services.db.prisma.paymentEvent.count()).toBe(0);
});

it('POST /webhooks/chain-indexer/venue_a → 500 when INDEXER_SHARED_SECRET is unset', async () => {
  const fill = {
    id: 'f',
    transactionHash: `0x${'a'.repeat(64)}`,
    timestamp: '1700000000',
    orderHash: `0x${'b'.repeat(64)}`,
    maker: `0x${'1'.repeat(40)}`,
    taker: `0x${'2'.repeat(40)}`,
    makerAssetId: '0',
    takerAssetId: '123',
    makerAmountFilled: '500000',
    takerAmountFilled: '1000000',
    fee: '0',
  };
  const r = await http(`${app.url}/webhooks/chain-indexer/venue_a`, {
    method: 'POST',
    headers: { 'x-indexer-secret': 'x' },
    json: { fills: [fill] },
  });
  expect(r.status).toBe(500);
  expect(r.body).toMatchObject({ error: 'internal', message: 'X-Indexer-Secret not configured' });
});
