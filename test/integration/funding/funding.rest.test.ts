import type {
  CreateOnrampSessionMutation,
  CreatePaymentIntentMutation,
  FundingHistoryQuery,
  NotificationsQuery,
  RequestWithdrawalMutation,
  WalletBalanceQuery,
  WithdrawalsQuery,
} from '../../../schema/generated/operations';
import { NotificationsService } from '../../../src/modules/notifications/notifications.service';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { WithdrawalsService } from '../../../src/modules/funding/withdrawals.service';
import { http, startTestApp, type TestApp } from '../../support/app';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream';
import { fund } from '../../support/funding';
import { allAtOnce, itEmbedded, itOnPostgres, oneAfterAnother } from '../../support/modes';
import { postPaymentEvent } from '../../support/payments';

type Onramp = CreateOnrampSessionMutation['createOnrampSession'];
type Fundings = FundingHistoryQuery['fundingHistory'];
type Withdrawal = RequestWithdrawalMutation['requestWithdrawal'];
type Withdrawals = WithdrawalsQuery['withdrawals'];
type Balance = WalletBalanceQuery['walletBalance'];

const SECRET = 'whsec_funding_test';
const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ONRAMP_RATE_LIMIT: '50', PAYMENT_WEBHOOK_SECRET: SECRET, WITHDRAWAL_DISPATCH_MS: '0' });
});
afterAll(async () => {
  await app.close();
});

const deliver = (event: unknown, base = app) => postPaymentEvent(base.url, event, { secret: SECRET });

async function balance(sub: string) {
  return (await app.as(sub).get('/api/wallets/balance')).body as Balance;
}

describe('POST /api/funding/onramp', () => {
  it('401 without a token', async () => {
    expect(
      (await http(`${app.url}/api/funding/onramp`, { method: 'POST', json: { amount: 50, currency: 'usd' } })).status,
    ).toBe(401);
  });

  it('creates a pending session with the processor', async () => {
    const r = await app.as('fa').post('/api/funding/onramp', { amount: 50.5, currency: 'eur' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'onramp', status: 'pending', amount: 50.5, currency: 'eur', credited: null });
    expect((r.body as Onramp).redirectUrl).toMatch(/^https:\/\//);
    expect((r.body as Onramp).processorId).toMatch(/^os_/);
  });

  it.each([
    [{ amount: 9.99, currency: 'usd' }, 'amount'],
    [{ amount: 10001, currency: 'usd' }, 'amount'],
    [{ amount: 10.001, currency: 'usd' }, 'amount'],
    [{ amount: '20', currency: 'usd' }, 'amount'],
    [{ currency: 'usd' }, 'amount'],
    [{ amount: 20, currency: 'btc' }, 'currency'],
    [{ amount: 20 }, 'currency'],
  ])('400 on %j', async (body, field) => {
    const r = await app.as('fa').post('/api/funding/onramp', body);
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message.startsWith(`${field}: `)).toBe(true);
  });

  it('Idempotency-Key: the same body replays the first answer; another body is a 409', async () => {
    const key = { 'idempotency-key': 'onramp-1' };
    const first = await app.as('fb').post('/api/funding/onramp', { amount: 25, currency: 'usd' }, key);
    const again = await app.as('fb').post('/api/funding/onramp', { currency: 'usd', amount: 25 }, key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const other = await app.as('fb').post('/api/funding/onramp', { amount: 26, currency: 'usd' }, key);
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ error: 'conflict' });
    // Another user's key space is separate.
    const theirs = await app.as('fc').post('/api/funding/onramp', { amount: 26, currency: 'usd' }, key);
    expect(theirs.status).toBe(200);
    expect(
      (
        await app
          .as('fb')
          .post('/api/funding/onramp', { amount: 25, currency: 'usd' }, { 'idempotency-key': 'bad key' })
      ).status,
    ).toBe(400);
    const history = (await app.as('fb').get('/api/funding/history')).body as Fundings;
    expect(history.total).toBe(1);
  });

  it('429 per user beyond the limit', async () => {
    const limited = await startTestApp({ ONRAMP_RATE_LIMIT: '2' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1)
        statuses.push((await limited.as('fr').post('/api/funding/onramp', { amount: 10, currency: 'usd' })).status);
      expect(statuses).toEqual([200, 200, 429]);
      expect((await limited.as('other').post('/api/funding/onramp', { amount: 10, currency: 'usd' })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('a retry replaying its Idempotency-Key is answered even when the limit is spent (no 429)', async () => {
    const limited = await startTestApp({ ONRAMP_RATE_LIMIT: '2' });
    try {
      const key = { 'idempotency-key': 'retry-after-limit' };
      const first = await limited.as('fk').post('/api/funding/onramp', { amount: 15, currency: 'usd' }, key);
      expect(first.status).toBe(200);
      expect((await limited.as('fk').post('/api/funding/onramp', { amount: 16, currency: 'usd' })).status).toBe(200);
      const replay = await limited.as('fk').post('/api/funding/onramp', { amount: 15, currency: 'usd' }, key);
      expect([replay.status, replay.body]).toEqual([200, first.body]);
      // New work is still limited, and a 429 does not claim its key: the same request later runs.
      const refused = await limited
        .as('fk')
        .post('/api/funding/onramp', { amount: 17, currency: 'usd' }, { 'idempotency-key': 'late' });
      expect(refused.status).toBe(429);
      expect(await limited.services.db.prisma.idempotentRequest.count({ where: { userId: 'fk', key: 'late' } })).toBe(
        0,
      );
    } finally {
      await limited.close();
    }
  });
});

describe('POST /api/funding/intent', () => {
  it('creates a legacy payment intent with its client secret, idempotently', async () => {
    const key = { 'idempotency-key': 'pi-1' };
    const r = await app.as('fi').post('/api/funding/intent', { amount: 5, currency: 'usd' }, key);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'payment_intent', status: 'pending', amount: 5 });
    expect((r.body as CreatePaymentIntentMutation['createPaymentIntent']).clientSecret).toMatch(/_secret_/);
    expect((await app.as('fi').post('/api/funding/intent', { amount: 5, currency: 'usd' }, key)).body).toEqual(r.body);
    expect((await app.as('fi').post('/api/funding/intent', { amount: 0.5, currency: 'usd' })).status).toBe(400);
  });
});

describe('GET /api/funding/history', () => {
  it('offset pages, newest first; limit at most 100', async () => {
    for (const amount of [10, 11, 12]) await app.as('fh').post('/api/funding/onramp', { amount, currency: 'usd' });
    const page = (await app.as('fh').get('/api/funding/history?limit=2&offset=0')).body as Fundings;
    expect(page).toMatchObject({ limit: 2, offset: 0, total: 3 });
    expect(page.data.map((f) => f.amount)).toEqual([12, 11]);
    const rest = (await app.as('fh').get('/api/funding/history?limit=2&offset=2')).body as Fundings;
    expect(rest.data.map((f) => f.amount)).toEqual([10]);
    expect((await app.as('fh').get('/api/funding/history?limit=101')).status).toBe(400);
    expect((await app.as('fh').get('/api/funding/history?limit=100')).status).toBe(200);
    expect((await http(`${app.url}/api/funding/history`)).status).toBe(401);
  });
});

describe('withdrawals', () => {
  it('refuses more than the available balance (400) and leaves the balance unchanged', async () => {
    await fund(app, 'wd', 100, { key: 'wd:credit' });
    const before = await balance('wd');
    // The wallet-auth token may name any address: the balance is what refuses.
    const r = await app.asWallet('wd').post('/api/funding/withdraw', {
      amount: 100.000001,
      chain: 'polygon',
      destination: EVM,
    });
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(/^amount: exceeds the available balance/);
    expect(await balance('wd')).toEqual(before);
    expect(before).toMatchObject({ available: 100, held: 0 });
    expect(((await app.as('wd').get('/api/funding/withdrawals')).body as Withdrawals).total).toBe(0);
  });

  it.each([
    [{ amount: 10, chain: 'polygon', destination: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD' }, 'destination'],
    [{ amount: 10, chain: 'solana', destination: EVM }, 'destination'],
    [{ amount: 10, chain: 'tron', destination: EVM }, 'chain'],
    [{ amount: 0.5, chain: 'polygon', destination: EVM }, 'amount'],
    [{ amount: 1.0000001, chain: 'polygon', destination: EVM }, 'amount'],
    [{ chain: 'polygon', destination: EVM }, 'amount'],
  ])('400 on %j, balance unchanged', async (body, field) => {
    const before = await balance('wd');
    const r = await app.as('wd').post('/api/funding/withdraw', body);
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message.startsWith(`${field}: `)).toBe(true);
    expect(await balance('wd')).toEqual(before);
  });

  /** Three sends of one withdrawal under one Idempotency-Key, by `send`: one withdrawal, one hold. */
  async function oneWithdrawalOfThree(send: typeof allAtOnce) {
    const key = { 'idempotency-key': 'w-1' };
    const body = { amount: 30.123456, chain: 'polygon', destination: EVM.toLowerCase() };
    const rs = await send(3, () => app.asWallet('wd').post('/api/funding/withdraw', body, key));
    expect(rs.map((r) => r.status)).toEqual([201, 201, 201]);
    const w = rs[0].body as Withdrawal;
    expect(rs.every((r) => (r.body as Withdrawal).id === w.id)).toBe(true);
    expect(w).toMatchObject({
      status: 'queued',
      amount: 30.123456,
      chain: 'polygon',
      destination: EVM,
      payoutId: null,
    });
    expect(await balance('wd')).toEqual(expect.objectContaining({ available: 69.876544, held: 30.123456 }));
    const mismatch = await app.asWallet('wd').post('/api/funding/withdraw', { ...body, amount: 1 }, key);
    expect(mismatch.status).toBe(409);
    expect(await balance('wd')).toEqual(expect.objectContaining({ available: 69.876544, held: 30.123456 }));
  }

  // The request runs in one transaction: PGlite runs them one at a time, so the race is PostgreSQL's.
  itOnPostgres('201: queued with the amount held at once; idempotent on its key, also concurrently', () =>
    oneWithdrawalOfThree(allAtOnce),
  );
  itEmbedded('201: queued with the amount held at once; idempotent on its key', () =>
    oneWithdrawalOfThree(oneAfterAnother),
  );

  it('the simulated processor pays at once: queued → completed, hold settled', async () => {
    expect(await app.services.get(WithdrawalsService).dispatch()).toBeGreaterThanOrEqual(1);
    const list = (await app.as('wd').get('/api/funding/withdrawals')).body as Withdrawals;
    expect(list).toMatchObject({ limit: 20, offset: 0, total: 1 });
    expect(list.data[0]).toMatchObject({ status: 'completed', payoutId: expect.stringMatching(/^po_/) });
    expect(await balance('wd')).toEqual(expect.objectContaining({ available: 69.876544, held: 0 }));
    expect(await app.services.get(LedgerService).audit()).toEqual([]);
  });

  it('end to end: onramp, signed webhook credit, withdraw to the provisioned wallet with the user token', async () => {
    const setup = (await app.as('e2e').post('/auth/setup')).body as { wallets: { chain: string; address: string }[] };
    const solana = setup.wallets.find((w) => w.chain === 'solana')!.address;
    const session = (await app.as('e2e').post('/api/funding/onramp', { amount: 40, currency: 'usd' })).body as Onramp;
    const ack = await deliver({
      id: 'evt_e2e',
      type: 'onramp.completed',
      data: { id: session.processorId, amountReceived: '39.50', currency: 'usdc' },
    });
    expect(ack.status).toBe(200);
    expect(await balance('e2e')).toEqual(expect.objectContaining({ available: 39.5 }));
    const history = (await app.as('e2e').get('/api/funding/history')).body as Fundings;
    expect(history.data[0]).toMatchObject({ status: 'succeeded', credited: 39.5 });
    expect(
      (
        await app.as('e2e').post('/api/funding/withdraw', {
          amount: 39.5,
          chain: 'solana',
          destination: solana,
        })
      ).status,
    ).toBe(201);
    expect(await balance('e2e')).toEqual(expect.objectContaining({ available: 0, held: 39.5 }));
  });
});

describe('payment processor over HTTP', () => {
  let upstream: FakeUpstream;
  let remote: TestApp;
  const payoutStatus = 'pending';
  beforeAll(async () => {
    let n = 0;
    upstream = await startFakeUpstream((req) => {
      n += 1;
      if (req.path === '/v1/onramp/sessions')
        return { body: { id: `sess_${String(req.headers['idempotency-key'])}`, url: 'https://pay.example/s' } };
      if (req.path === '/v1/payment_intents') return { body: { id: `pi_${n}`, client_secret: `secret_${n}` } };
      if (req.path === '/v1/payouts')
        return { body: { id: `po_${(req.body as { reference: string }).reference}`, status: payoutStatus } };
      return { status: 404 };
    });
    remote = await startTestApp({
      PAYMENT_PROCESSOR_URL: upstream.url,
      PAYMENT_PROCESSOR_API_KEY: 'pp-key',
      PAYMENT_WEBHOOK_SECRET: SECRET,
      WITHDRAWAL_DISPATCH_MS: '0',
    });
  });
  afterAll(async () => {
    await remote.close();
    await upstream.close();
  });

  it('forwards amounts, currency and the idempotency key; a replay does not call the processor again', async () => {
    const key = { 'idempotency-key': 'k1' };
    const r = await remote.as('hp').post('/api/funding/onramp', { amount: 12.3, currency: 'gbp' }, key);
    expect(r.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]).toMatchObject({
      method: 'POST',
      body: { customer: 'hp', source_amount: '12.30', source_currency: 'gbp' },
    });
    expect(upstream.requests[0].headers.authorization).toBe('Bearer pp-key');
    expect(upstream.requests[0].headers['idempotency-key']).toBe('onramp:hp:k1');
    expect((await remote.as('hp').post('/api/funding/onramp', { amount: 12.3, currency: 'gbp' }, key)).body).toEqual(
      r.body,
    );
    expect(upstream.requests).toHaveLength(1);
  });

  it('502 when the processor fails, and the key is released for a retry', async () => {
    upstream.handle(() => ({ status: 500 }));
    const key = { 'idempotency-key': 'k2' };
    expect((await remote.as('hp').post('/api/funding/intent', { amount: 3, currency: 'usd' }, key)).status).toBe(502);
    upstream.handle(() => ({ body: { id: 'pi_retry', client_secret: 's' } }));
    const retry = await remote.as('hp').post('/api/funding/intent', { amount: 3, currency: 'usd' }, key);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ processorId: 'pi_retry' });
  });

  it(
    'payouts: pending → processing; payout.paid → completed; payout.failed → failed with the hold ' + 'released',
    async () => {
      upstream.handle((req) => ({
        body: { id: `po_${(req.body as { reference: string }).reference}`, status: payoutStatus },
      }));
      await fund(remote, 'hq', 50, { key: 'hq', reference: 't' });
      const a = (
        await remote.asWallet('hq').post('/api/funding/withdraw', { amount: 20, chain: 'polygon', destination: EVM })
      ).body as Withdrawal;
      const b = (
        await remote.asWallet('hq').post('/api/funding/withdraw', { amount: 10, chain: 'polygon', destination: EVM })
      ).body as Withdrawal;
      upstream.handle(() => ({ status: 503 }));
      expect(await remote.services.get(WithdrawalsService).dispatch()).toBe(0); // stays queued, retried later
      upstream.handle((req) => ({
        body: { id: `po_${(req.body as { reference: string }).reference}`, status: payoutStatus },
      }));
      expect(await remote.services.get(WithdrawalsService).dispatch()).toBe(2);
      const payout = upstream.requests.filter((r) => r.path === '/v1/payouts').at(-1)!;
      expect(payout.headers['idempotency-key']).toMatch(/^payout:/);
      let list = ((await remote.as('hq').get('/api/funding/withdrawals')).body as Withdrawals).data;
      expect(list.map((w) => w.status)).toEqual(['processing', 'processing']);
      await deliver({ id: 'evt_paid', type: 'payout.paid', data: { id: `po_${a.id}`, reference: a.id } }, remote);
      await deliver(
        { id: 'evt_failed', type: 'payout.failed', data: { id: `po_${b.id}`, failureReason: 'address rejected' } },
        remote,
      );
      // Late or repeated events change nothing.
      await deliver({ id: 'evt_failed_late', type: 'payout.failed', data: { id: `po_${a.id}` } }, remote);
      list = ((await remote.as('hq').get('/api/funding/withdrawals')).body as Withdrawals).data;
      expect(Object.fromEntries(list.map((w) => [w.id, [w.status, w.failureReason]]))).toEqual({
        [a.id]: ['completed', null],
        [b.id]: ['failed', 'address rejected'],
      });
      const bal = (await remote.as('hq').get('/api/wallets/balance')).body as Balance;
      expect(bal).toMatchObject({ available: 30, held: 0 });
      expect(await remote.services.get(LedgerService).audit()).toEqual([]);
      // Each state change the dispatcher or a processor event made is notified once; the late event none.
      await remote.services.get(NotificationsService).settled();
      const notes = (
        (await remote.as('hq').get('/api/notifications?limit=100')).body as NotificationsQuery['notifications']
      ).data;
      expect(
        notes
          .filter((n) => n.kind === 'withdrawal')
          .map((n) => `${String(n.data.withdrawalId)}:${String(n.data.status)}`)
          .sort(),
      ).toEqual([`${a.id}:processing`, `${b.id}:processing`, `${a.id}:completed`, `${b.id}:failed`].sort());
    },
  );
});
