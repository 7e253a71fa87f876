/**
 * The ledger end to end: a random (seeded, so replayable) sequence of API
 * operations by a few users — onramps credited by signed processor webhooks
 * (redelivered, failed, fees deducted), withdrawals (some beyond the balance),
 * dispatcher rounds against a processor that pays, fails, queues or is down,
 * payout events (repeated, late), simulated buys and sells through
 * POST /execute, reward claims — checked against a model of each balance, and
 * at the end every balance equals the sum of its entries (`ledger.audit()`).
 */
import type {
  ClaimRewardsMutation,
  CreateOnrampSessionMutation,
  ReceivePaymentEventMutation,
  RequestWithdrawalMutation,
  SetupAccountMutation,
  WalletBalanceQuery,
} from '../../../schema/generated/operations';
import { startTestApp, type TestApp } from '../../support/app';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream';
import type { FakeVenues } from '../../support/fake-venues';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { startLiveVenueB } from '../execution/trading-helpers';
import { postStream, type StreamResult } from '../../support/execution-stream';
import { micros, usd } from '../../support/money';
import { postPaymentEvent } from '../../support/payments';
import { prng } from '../../support/prng';
import { WithdrawalsService } from '../../../src/modules/funding/withdrawals.service';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';

const SECRET = 'whsec_ledger_e2e';
const SEED = 20261124;
const STEPS = 70;
const USERS = ['le-1', 'le-2', 'le-3'];
const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

const pinned = pinnedWorld();
const marketB = activeMatchedEvent(pinned.world).markets[0].venueMarketIds.venue_b!;

type PayoutMode = 'pending' | 'paid' | 'failed' | 'down';
let payoutMode: PayoutMode = 'pending';
let upstream: FakeUpstream;
/** A live venue_b (a local server): live orders on the simulated one trade in the paper account. */
let venueB: FakeVenues;
let app: TestApp;
beforeAll(async () => {
  const live = await startLiveVenueB([marketB]);
  venueB = live.fake;
  let sessions = 0;
  upstream = await startFakeUpstream((req) => {
    if (req.path === '/v1/onramp/sessions')
      return { body: { id: `sess_e2e_${(sessions += 1)}`, url: 'https://pay.example/s' } };
    if (req.path === '/v1/payouts') {
      if (payoutMode === 'down') return { status: 503 };
      const reference = (req.body as { reference: string }).reference;
      return {
        body: {
          id: `po_${reference}`,
          status: payoutMode,
          ...(payoutMode === 'failed' && { failure_reason: 'address rejected' }),
        },
      };
    }
    return { status: 404 };
  });
  app = await startTestApp(
    {
      ...live.env,
      PAYMENT_PROCESSOR_URL: upstream.url,
      PAYMENT_WEBHOOK_SECRET: SECRET,
      WITHDRAWAL_DISPATCH_MS: '0',
      ONRAMP_RATE_LIMIT: '10000',
      REWARDS_HOLD_SECONDS: '0',
      REWARDS_SETTLE_MS: '0',
      REWARDS_CLAIM_RATE_LIMIT: '10000',
      WITHDRAW_RATE_LIMIT: '10000',
    },
    {},
    pinned,
  );
});
afterAll(async () => {
  await app.close();
  await upstream.close();
  await venueB.close();
});

let events = 0;
/** Delivers a processor event signed at the services' clock (the pinned one). */
async function deliver(type: string, data: Record<string, unknown>, id = `evt_e2e_${(events += 1)}`) {
  const r = await postPaymentEvent(app.url, { id, type, data }, { secret: SECRET, atMs: pinned.now() });
  expect(r.status).toBe(200);
  return { id, body: r.body as ReceivePaymentEventMutation['receivePaymentEvent'] };
}

interface Model {
  available: bigint;
  held: bigint;
  contracts: number;
  walletId: string;
}
interface Deposit {
  user: string;
  processorId: string;
  requested: number;
}
interface Payout {
  user: string;
  id: string;
  amount: bigint;
  state: 'queued' | 'processing' | 'completed' | 'failed';
}

describe('the ledger under a random sequence of API operations', () => {
  it(`seed ${SEED}: every balance follows the operations and equals the sum of its entries`, async () => {
    const rand = prng(SEED);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
    const model = new Map<string, Model>();
    for (const u of USERS) {
      const setup = (await app.as(u).post('/auth/setup')).body as SetupAccountMutation['setupAccount'];
      model.set(u, { available: 0n, held: 0n, contracts: 0, walletId: setup.wallets[0].id });
    }
    const deposits: Deposit[] = [];
    const withdrawals: Payout[] = [];
    const tally: Record<string, number> = {};
    const count = (what: string) => void (tally[what] = (tally[what] ?? 0) + 1);

    /** Applies an order's ledger movements to the model (the stream's order id names them). */
    const applyOrder = async (user: string, r: StreamResult) => {
      const orderId = r.events[0].data.orderId;
      const entries = await app.services.db.prisma.ledgerEntry.findMany({ where: { reference: `order:${orderId}` } });
      const m = model.get(user)!;
      for (const e of entries) {
        m.available += e.availableDelta;
        m.held += e.heldDelta;
      }
      const end = r.events[r.events.length - 1].data;
      if (end.position && end.position.status !== 'pending') m.contracts = end.position.size;
    };

    const operations: Record<string, (user?: string) => Promise<void>> = {
      onramp: async () => {
        const user = pick(USERS);
        const requested = (1_000 + Math.floor(rand() * 49_000)) / 100;
        const r = await app.as(user).post('/api/funding/onramp', { amount: requested, currency: 'usd' });
        expect(r.status).toBe(200);
        deposits.push({
          user,
          processorId: (r.body as CreateOnrampSessionMutation['createOnrampSession']).processorId,
          requested,
        });
      },
      depositEvent: async () => {
        if (deposits.length === 0) return;
        const d = deposits.splice(Math.floor(rand() * deposits.length), 1)[0];
        if (rand() < 0.15) {
          expect(
            (await deliver('onramp.failed', { id: d.processorId, failureReason: 'card declined' })).body.outcome,
          ).toBe('recorded');
          return count('deposit failed');
        }
        // The processor may deduct a fee of up to 3 %.
        const received = Math.round(d.requested * (0.97 + rand() * 0.03) * 100) / 100;
        const first = await deliver('onramp.completed', {
          id: d.processorId,
          amountReceived: received.toFixed(2),
          currency: 'usd',
        });
        expect(first.body).toMatchObject({ duplicate: false, outcome: 'applied' });
        model.get(d.user)!.available += micros(received);
        if (rand() < 0.3) {
          // A redelivery, and another success event for the same deposit: nothing more is credited.
          const again = await deliver(
            'onramp.completed',
            { id: d.processorId, amountReceived: received.toFixed(2) },
            first.id,
          );
          expect(again.body).toMatchObject({ duplicate: true, outcome: 'applied' });
          await deliver('onramp.completed', { id: d.processorId, amountReceived: received.toFixed(2) });
          count('deposit redelivered');
        }
        count('deposit credited');
      },
      withdraw: async () => {
        const user = pick(USERS);
        const m = model.get(user)!;
        const amount = Math.max(1, Math.floor(usd(m.available) * (0.1 + rand() * 1.1) * 100) / 100);
        // The wallet-auth token (step-up) withdraws to any address.
        const r = await app
          .asWallet(user)
          .post('/api/funding/withdraw', { amount, chain: 'polygon', destination: EVM });
        if (micros(amount) > m.available) {
          expect([r.status, (r.body as { message: string }).message]).toEqual([
            400,
            'amount: exceeds the available balance',
          ]);
          return count('withdrawal refused');
        }
        expect(r.status).toBe(201);
        m.available -= micros(amount);
        m.held += micros(amount);
        withdrawals.push({
          user,
          id: (r.body as RequestWithdrawalMutation['requestWithdrawal']).id,
          amount: micros(amount),
          state: 'queued',
        });
        count('withdrawal queued');
      },
      dispatch: async () => {
        payoutMode = pick(['pending', 'pending', 'paid', 'failed', 'down'] as const);
        const queued = withdrawals.filter((w) => w.state === 'queued');
        expect(await app.services.get(WithdrawalsService).dispatch(100)).toBe(
          payoutMode === 'down' ? 0 : queued.length,
        );
        if (payoutMode === 'down') return;
        for (const w of queued)
          settle(w, payoutMode === 'pending' ? 'processing' : payoutMode === 'paid' ? 'completed' : 'failed');
        count(`dispatch ${payoutMode}`);
      },
      payoutEvent: async () => {
        const open = withdrawals.filter((w) => w.state === 'processing');
        if (open.length === 0) return;
        const w = pick(open);
        const paid = rand() < 0.7;
        const data = rand() < 0.5 ? { id: `po_${w.id}` } : { reference: w.id };
        const first = await deliver(paid ? 'payout.paid' : 'payout.failed', data);
        expect(first.body).toMatchObject({ duplicate: false, outcome: 'applied' });
        settle(w, paid ? 'completed' : 'failed');
        // A repeat, and a late contrary event, change nothing.
        if (rand() < 0.4)
          expect((await deliver(paid ? 'payout.paid' : 'payout.failed', data, first.id)).body).toMatchObject({
            duplicate: true,
          });
        if (rand() < 0.4)
          expect((await deliver(paid ? 'payout.failed' : 'payout.paid', { reference: w.id })).body).toMatchObject({
            outcome: 'recorded',
          });
        count(`payout ${paid ? 'paid' : 'failed'}`);
      },
      buy: async () => {
        const user = pick(USERS);
        const size = 1 + Math.floor(rand() * 30);
        const r = await postStream(
          `${app.url}/execute`,
          // Live, at a live venue_b: simulated orders (and live ones on a simulated venue) trade in paper.
          { marketId: marketB, side: 'buy', outcome: 'yes', size, mode: 'live' },
          await app.walletBearer(user),
        );
        if (r.status === 400) {
          expect(r.body!.message).toMatch(/^size: insufficient balance/);
          return count('buy refused');
        }
        expect(r.status).toBe(200);
        await applyOrder(user, r);
        count(`buy ${r.events[r.events.length - 1].event}`);
      },
      sell: async () => {
        const user = pick(USERS);
        const m = model.get(user)!;
        if (m.contracts < 1) return;
        const size = 1 + Math.floor(rand() * m.contracts);
        const r = await postStream(
          `${app.url}/execute`,
          { marketId: marketB, side: 'sell', outcome: 'yes', size, mode: 'live' },
          await app.walletBearer(user),
        );
        expect(r.status).toBe(200);
        await applyOrder(user, r);
        count(`sell ${r.events[r.events.length - 1].event}`);
      },
      claim: async (user = pick(USERS)) => {
        // Fees accrue at the database's (real) time, releases follow the services' pinned clock: for
        // the claim, the clock catches up with real time (the hold is 0 s), then goes back.
        const pinnedMs = pinned.clock.ms;
        pinned.clock.ms = Date.now() + 1000;
        const r = await app
          .as(user)
          .post('/api/rewards/claim', { walletId: model.get(user)!.walletId })
          .finally(() => {
            pinned.clock.ms = pinnedMs;
          });
        if (r.status === 400) return count('claim: nothing');
        expect(r.status).toBe(200);
        model.get(user)!.available += micros((r.body as ClaimRewardsMutation['claimRewards']).amount);
        count('claim');
      },
    };
    const settle = (w: Payout, to: Payout['state']) => {
      const m = model.get(w.user)!;
      if (to === 'completed') m.held -= w.amount;
      if (to === 'failed') {
        m.held -= w.amount;
        m.available += w.amount;
      }
      w.state = to;
    };
    const weights: [string, number][] = [
      ['onramp', 4],
      ['depositEvent', 4],
      ['withdraw', 3],
      ['dispatch', 2],
      ['payoutEvent', 2],
      ['buy', 3],
      ['sell', 2],
      ['claim', 1],
    ];
    const total = weights.reduce((s, [, w]) => s + w, 0);
    const check = async () => {
      for (const [u, m] of model)
        expect([u, await app.services.get(LedgerService).balance(u)]).toEqual([
          u,
          { userId: u, currency: 'USD', available: m.available, held: m.held },
        ]);
    };

    for (let step = 0; step < STEPS; step += 1) {
      let x = rand() * total;
      const [name] = weights.find(([, w]) => (x -= w) < 0)!;
      await operations[name]();
      if (step % 10 === 9) await check();
    }
    // Wind down: every deposit credited, every reward claimed, every withdrawal ended.
    while (deposits.length > 0) await operations.depositEvent();
    for (const u of USERS) await operations.claim(u);
    payoutMode = 'paid';
    await operations.dispatch();
    for (const w of withdrawals.filter((x) => x.state === 'processing')) {
      await deliver('payout.paid', { reference: w.id });
      settle(w, 'completed');
    }
    await check();

    // The sequence exercised every kind of operation.
    const kinds = [
      'deposit credited',
      'deposit failed',
      'withdrawal refused',
      'withdrawal queued',
      'payout paid',
      'buy completed',
      'sell completed',
      'claim',
    ];
    expect(kinds.filter((k) => !tally[k])).toEqual([]);
    for (const [u, m] of model) {
      expect(m.held).toBe(0n);
      const sums = await app.services.db.prisma.ledgerEntry.aggregate({
        where: { userId: u },
        _sum: { availableDelta: true, heldDelta: true },
      });
      expect([sums._sum.availableDelta, sums._sum.heldDelta]).toEqual([m.available, m.held]);
      const shown = (await app.as(u).get('/api/wallets/balance')).body as WalletBalanceQuery['walletBalance'];
      expect([micros(shown.available), micros(shown.held)]).toEqual([m.available, m.held]);
    }
    expect(await app.services.get(LedgerService).audit()).toEqual([]);
  });
});
