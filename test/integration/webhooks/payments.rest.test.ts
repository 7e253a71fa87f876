import { paymentSignature } from '../../../src/modules/webhooks/payment-signature';
import { signPaymentPayload } from '../../../src/modules/webhooks';
import type {
  CreateOnrampSessionMutation,
  CreatePaymentIntentMutation,
  ReceivePaymentEventMutation,
} from '../../../schema/generated/operations';
import { startTestApp, type TestApp } from '../../support/app';
import { fund } from '../../support/funding';
import { gql } from '../../support/graphql';
import { allAtOnce, itOnPostgres, oneAfterAnother } from '../../support/modes';
import { postPaymentEvent } from '../../support/payments';
import { WithdrawalsService } from '../../../src/modules/funding/withdrawals.service';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';

const SECRET = 'whsec_payments_test';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ PAYMENT_WEBHOOK_SECRET: SECRET, WITHDRAWAL_DISPATCH_MS: '0' });
});
afterAll(async () => {
  await app.close();
});

const now = () => Math.floor(Date.now() / 1000);

/** Posts `body` byte for byte with the `Payment-Signature` given (none when left out). */
const post = (body: string, signature?: string) =>
  postPaymentEvent(app.url, body, { secret: SECRET, signature: signature ?? null });

/** Posts `event` (an object as JSON, a string as it is) signed with the secret. */
const deliver = (event: unknown) => postPaymentEvent(app.url, event, { secret: SECRET });

async function onramp(sub: string, amount = 100) {
  const r = await app.as(sub).post('/api/funding/onramp', { amount, currency: 'usd' });
  return r.body as CreateOnrampSessionMutation['createOnrampSession'];
}

const available = async (userId: string) => (await app.services.get(LedgerService).balance(userId)).available;

describe('Payment-Signature', () => {
  const body = JSON.stringify({ id: 'evt_sig', type: 'something.else', data: {} });

  it('accepts a valid signature (200)', async () => {
    const r = await deliver(body);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ received: true, eventId: 'evt_sig', duplicate: false, outcome: 'ignored' });
  });

  it('accepts several v1 values when one matches (secret rotation)', async () => {
    const t = now();
    const other = paymentSignature('old-secret', t, body);
    const r = await post(
      body.replace('evt_sig', 'evt_sig2'),
      `t=${t},v1=${other},v1=${paymentSignature(SECRET, t, body.replace('evt_sig', 'evt_sig2'))},v0=ignored`,
    );
    expect(r.status).toBe(200);
  });

  it.each([
    [
      'stale (301 s old)',
      (b: string) => {
        const t = now() - 301;
        return `t=${t},v1=${paymentSignature(SECRET, t, b)}`;
      },
    ],
    [
      'from the future (301 s ahead)',
      (b: string) => {
        const t = now() + 301;
        return `t=${t},v1=${paymentSignature(SECRET, t, b)}`;
      },
    ],
    ['signed with another secret', (b: string) => signPaymentPayload('wrong-secret', b)],
    ['signed over another body (tampered)', () => signPaymentPayload(SECRET, body.replace('something', 'somethinG'))],
    ['no v1', () => `t=${now()}`],
    ['no timestamp', (b: string) => `v1=${paymentSignature(SECRET, now(), b)}`],
    ['garbage', () => 'hello'],
  ])('400 when %s', async (_name, sign) => {
    const r = await post(body, sign(body));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'bad_request' });
    expect((r.body as { message: string }).message).toMatch(/^Payment-Signature: /);
  });

  it('400 when the header is missing', async () => {
    const r = await post(body);
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toBe('Payment-Signature: is required');
  });

  it('400 when a correctly signed body is not an event', async () => {
    for (const bad of ['{"type":"x"}', '{"id":"e","type":7}', '[1,2]']) {
      const r = await deliver(bad);
      expect(r.status).toBe(400);
    }
    const noAmount = JSON.stringify({ id: 'evt_na', type: 'onramp.completed', data: { id: 'os_x' } });
    const r = await deliver(noAmount);
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(/^data\.amountReceived: /);
  });

  it('verifies the exact bytes sent (whitespace and key order included)', async () => {
    const pretty = '{\n  "type": "x.y",\n  "id": "evt_pretty",\n  "data": {}\n}';
    expect((await deliver(pretty)).status).toBe(200);
    expect((await post(pretty, signPaymentPayload(SECRET, JSON.stringify(JSON.parse(pretty))))).status).toBe(400);
  });
});

describe('events', () => {
  it('the same success event delivered 3 times credits once', async () => {
    const s = await onramp('pa');
    const event = {
      id: 'evt_once',
      type: 'onramp.completed',
      created: now(),
      data: { id: s.processorId, amountReceived: '99.25', currency: 'usdc' },
    };
    const acks = [];
    for (let i = 0; i < 3; i += 1) acks.push((await deliver(event)).body);
    expect(acks).toEqual([
      { received: true, eventId: 'evt_once', duplicate: false, outcome: 'applied' },
      { received: true, eventId: 'evt_once', duplicate: true, outcome: 'applied' },
      { received: true, eventId: 'evt_once', duplicate: true, outcome: 'applied' },
    ]);
    expect(await available('pa')).toBe(99_250_000n);
    const f = await app.services.db.prisma.fundingTransaction.findUniqueOrThrow({
      where: { processorId: s.processorId },
    });
    expect(f).toMatchObject({ status: 'succeeded', creditedMicros: 99_250_000n });
  });

  /** One success event delivered three times by `send`, then another success event for the same deposit. */
  async function creditedOnce(sub: string, send: typeof allAtOnce) {
    const s = await onramp(sub);
    const event = { id: `evt_conc_${sub}`, type: 'onramp.completed', data: { id: s.processorId, amountReceived: 50 } };
    const rs = await send(3, () => deliver(event));
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(rs.filter((r) => !(r.body as ReceivePaymentEventMutation['receivePaymentEvent']).duplicate)).toHaveLength(1);
    await deliver({ ...event, id: `evt_conc_other_${sub}` });
    expect(await available(sub)).toBe(50_000_000n);
    expect(await app.services.db.prisma.ledgerEntry.count({ where: { userId: sub } })).toBe(1);
  }

  it('a second success event for the same deposit credits nothing more', () => creditedOnce('pb', oneAfterAnother));

  // A delivery is one transaction: PGlite runs them one at a time, so the race is PostgreSQL's.
  itOnPostgres('concurrent deliveries, and a second success event for the same deposit, credit once', () =>
    creditedOnce('pb-c', allAtOnce),
  );

  it('legacy payment intents credit on payment_intent.succeeded', async () => {
    const r = await app.as('pc').post('/api/funding/intent', { amount: 20, currency: 'usd' });
    const pi = r.body as CreatePaymentIntentMutation['createPaymentIntent'];
    await deliver({
      id: 'evt_pi',
      type: 'payment_intent.succeeded',
      data: { id: pi.processorId, amountReceived: '20.00', currency: 'usd' },
    });
    expect(await available('pc')).toBe(20_000_000n);
  });

  it('failures are recorded without moving money; a late failure never undoes a success', async () => {
    const s = await onramp('pd');
    const ack = await deliver({
      id: 'evt_fail',
      type: 'onramp.failed',
      data: { id: s.processorId, failureReason: 'card declined' },
    });
    expect(ack.body).toMatchObject({ outcome: 'recorded', duplicate: false });
    expect(
      await app.services.db.prisma.fundingTransaction.findUniqueOrThrow({ where: { processorId: s.processorId } }),
    ).toMatchObject({
      status: 'failed',
      failureReason: 'card declined',
    });
    expect(await available('pd')).toBe(0n);
    const stored = await app.services.db.prisma.paymentEvent.findUniqueOrThrow({ where: { id: 'evt_fail' } });
    expect(stored).toMatchObject({ type: 'onramp.failed', outcome: 'recorded' });

    const t = await onramp('pe');
    await deliver({ id: 'evt_ok', type: 'onramp.completed', data: { id: t.processorId, amountReceived: 10 } });
    await deliver({ id: 'evt_late_fail', type: 'onramp.failed', data: { id: t.processorId } });
    expect(
      await app.services.db.prisma.fundingTransaction.findUniqueOrThrow({ where: { processorId: t.processorId } }),
    ).toMatchObject({
      status: 'succeeded',
    });
    expect(await available('pe')).toBe(10_000_000n);
  });

  it('acknowledges unknown kinds and unknown objects (200) without effect', async () => {
    expect((await deliver({ id: 'evt_unknown', type: 'customer.updated', data: { id: 'cus_1' } })).body).toMatchObject({
      outcome: 'ignored',
    });
    expect(
      (await deliver({ id: 'evt_nomatch', type: 'onramp.completed', data: { id: 'os_nope', amountReceived: 5 } })).body,
    ).toMatchObject({
      outcome: 'unmatched',
    });
  });

  /** A success event before its deposit's record; redelivered three times by `send` once the record is there. */
  async function unmatchedThenApplied(sub: string, send: typeof allAtOnce) {
    const prisma = app.services.db.prisma;
    const eventId = `evt_early_${sub}`;
    const processorId = `os_late_${sub}`;
    const event = {
      id: eventId,
      type: 'onramp.completed',
      data: { id: processorId, amountReceived: '40', currency: 'usd' },
    };
    expect((await deliver(event)).body).toEqual({
      received: true,
      eventId,
      duplicate: false,
      outcome: 'unmatched',
    });
    // Still nothing to match: nothing done again.
    expect((await deliver(event)).body).toEqual({
      received: true,
      eventId,
      duplicate: true,
      outcome: 'unmatched',
    });
    // The deposit's record commits after the processor's event.
    await prisma.fundingTransaction.create({
      data: { userId: sub, kind: 'onramp', processorId, amountMicros: 40_000_000n, currency: 'usd' },
    });
    const rs = await send(3, () => deliver(event));
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(rs.map((r) => r.body).filter((b) => !(b as { duplicate: boolean }).duplicate)).toEqual([
      { received: true, eventId, duplicate: false, outcome: 'applied' },
    ]);
    expect((await deliver(event)).body).toEqual({
      received: true,
      eventId,
      duplicate: true,
      outcome: 'applied',
    });
    expect(await available(sub)).toBe(40_000_000n);
    expect(await prisma.ledgerEntry.count({ where: { userId: sub } })).toBe(1);
    expect(await prisma.fundingTransaction.findUniqueOrThrow({ where: { processorId } })).toMatchObject({
      status: 'succeeded',
      creditedMicros: 40_000_000n,
    });
    expect(await prisma.paymentEvent.findUniqueOrThrow({ where: { id: eventId } })).toMatchObject({
      outcome: 'applied',
    });
  }

  it('unmatched is not final: a success that overtook its deposit is credited on redelivery, once', () =>
    unmatchedThenApplied('pl', oneAfterAnother));

  itOnPostgres(
    'unmatched is not final: concurrent redeliveries of a success that overtook its deposit credit exactly once',
    () => unmatchedThenApplied('pl-c', allAtOnce),
  );

  it('a payout event before its payout id is committed is unmatched, then applied on redelivery', async () => {
    const prisma = app.services.db.prisma;
    await fund(app, 'pw', 30, { key: 'pw:credit' });
    const destination = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    // As a wallet-auth caller asks it (any address).
    const w = await app.services
      .get(WithdrawalsService)
      .request('pw', { amount: 30, chain: 'polygon', destination }, { walletAuth: true });
    const event = { id: 'evt_payout_early', type: 'payout.paid', data: { id: 'po_early' } };
    expect((await deliver(event)).body).toMatchObject({ duplicate: false, outcome: 'unmatched' });
    expect(await app.services.get(LedgerService).balance('pw')).toMatchObject({ available: 0n, held: 30_000_000n });
    // The dispatcher's transaction commits the payout id.
    await prisma.withdrawal.update({ where: { id: w.id }, data: { status: 'processing', payoutId: 'po_early' } });
    expect((await deliver(event)).body).toMatchObject({ duplicate: false, outcome: 'applied' });
    expect((await deliver(event)).body).toMatchObject({ duplicate: true, outcome: 'applied' });
    expect(await prisma.withdrawal.findUniqueOrThrow({ where: { id: w.id } })).toMatchObject({ status: 'completed' });
    expect(await app.services.get(LedgerService).balance('pw')).toMatchObject({ available: 0n, held: 0n });
    // An event for a withdrawal that has ended is recorded, not unmatched (and final).
    expect(
      (await deliver({ id: 'evt_payout_late', type: 'payout.failed', data: { reference: w.id } })).body,
    ).toMatchObject({ outcome: 'recorded' });
    expect(await app.services.get(LedgerService).audit()).toEqual([]);
  });

  it.each([
    ['a 20-digit string', '99999999999999999999'],
    ['a 21-digit number (1e20)', 1e20],
    ['one micro-unit above 1,000,000', '1000000.000001'],
    ['zero', '0'],
  ])('400 naming data.amountReceived for %s; nothing stored', async (_name, amount) => {
    const s = await onramp('po');
    const r = await deliver({
      id: `evt_big_${String(amount)}`,
      type: 'onramp.completed',
      data: { id: s.processorId, amountReceived: amount },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'bad_request' });
    expect((r.body as { message: string }).message).toMatch(/^data\.amountReceived: /);
    expect(await app.services.db.prisma.paymentEvent.count({ where: { id: `evt_big_${String(amount)}` } })).toBe(0);
    expect(await available('po')).toBe(0n);
  });

  it(
    'credits what the processor received, up to twice the requested amount; more is refused and not ' + 'stored',
    async () => {
      const s = await onramp('pq', 100);
      const event = {
        id: 'evt_over',
        type: 'onramp.completed',
        data: { id: s.processorId, amountReceived: '200.000001', currency: 'usd' },
      };
      const refused = await deliver(event);
      expect(refused.status).toBe(400);
      expect((refused.body as { message: string }).message).toMatch(/^data\.amountReceived: must be at most 2 times/);
      expect(await app.services.db.prisma.paymentEvent.count({ where: { id: 'evt_over' } })).toBe(0);
      // The processor corrects the event: more than requested (conversion), within the bound, is credited.
      const corrected = await deliver({ ...event, data: { ...event.data, amountReceived: '200' } });
      expect(corrected.body).toMatchObject({ duplicate: false, outcome: 'applied' });
      expect(await available('pq')).toBe(200_000_000n);
    },
  );

  it('is reachable on GraphQL with the payload as an argument', async () => {
    const payload = JSON.stringify({ id: 'evt_gql', type: 'noop', data: {} });
    const r = await gql(
      app,
      'mutation($p: String!) { receivePaymentEvent(payload: $p) { eventId outcome } }',
      { p: payload },
      { 'payment-signature': signPaymentPayload(SECRET, payload) },
    );
    expect(r.body).toEqual({ data: { receivePaymentEvent: { eventId: 'evt_gql', outcome: 'ignored' } } });
  });
});
