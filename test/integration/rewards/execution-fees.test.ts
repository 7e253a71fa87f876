import type { ReferralCodeMutation } from '../../../schema/generated/operations';
import { http, startTestApp, type TestApp } from '../../support/app';
import { postStream } from '../../support/execution-stream';
import { fund } from '../../support/funding';
import { micros } from '../../support/money';
import type { FakeVenues } from '../../support/fake-venues';
import { activeMatchedEvent, pinnedWorld } from '../../support/pinned-world';
import { startLiveVenueB } from '../execution/trading-helpers';
import { type Reward, type RewardsPage } from './rewards-helpers';

// Fees charged by real executions reach the rewards ledger through the fee
// listener, in the trade's transaction: cashback to the payer, tier 1 to the referrer.
let app: TestApp;
/** A live venue_b (a local server): live orders on the simulated one trade in the paper account. */
let venueB: FakeVenues;
const pinned = pinnedWorld();
const marketB = activeMatchedEvent(pinned.world).markets[0].venueMarketIds.venue_b!;
beforeAll(async () => {
  const live = await startLiveVenueB([marketB]);
  venueB = live.fake;
  app = await startTestApp(
    { ...live.env, REWARDS_CASHBACK_BPS: '1000', REWARDS_REFERRAL_TIER1_BPS: '2000' },
    {},
    pinned,
  );
});
afterAll(async () => {
  await app.close();
  await venueB.close();
});

it('a venue_b buy through /execute accrues cashback and the referrer share of each fee it charged', async () => {
  const { code } = (await app.as('fee-referrer').post('/api/rewards/referral/code'))
    .body as ReferralCodeMutation['referralCode'];
  expect((await app.as('fee-trader').post('/api/rewards/referral/apply', { code })).status).toBe(200);
  await fund(app, 'fee-trader', 1_000);
  const r = await postStream(
    `${app.url}/execute`,
    // Live: paper (simulated) fees earn no rewards.
    { marketId: marketB, side: 'buy', outcome: 'yes', size: 25, mode: 'live' },
    await app.walletBearer('fee-trader'),
  );
  const done = r.events.at(-1)!;
  expect(done.event).toBe('completed');
  const orderId = done.data.orderId;
  const fills = r.events.filter((e) => e.event === 'fill').map((e) => e.data.fill!);
  const feeMicros = fills.map((f) => Number(micros(f.fee)));
  expect(feeMicros.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);

  const cashback = ((await app.as('fee-trader').get('/api/rewards/history?limit=200')).body as RewardsPage).data.filter(
    (w) => w.type === 'cashback',
  );
  const referral = (
    (await app.as('fee-referrer').get('/api/rewards/history?limit=200')).body as RewardsPage
  ).data.filter((w) => w.type === 'referral_tier1');
  const expected = (bps: number) =>
    fills
      .map((f, i) => ({ source: `fee:${orderId}:${f.seq}`, amount: Math.floor((feeMicros[i] * bps) / 10_000) / 1e6 }))
      .filter((x) => x.amount > 0)
      .sort((a, b) => a.source.localeCompare(b.source));
  const bySource = (rows: Reward[]) =>
    rows.map((w) => ({ source: w.source, amount: w.amount })).sort((a, b) => a.source.localeCompare(b.source));
  expect(bySource(cashback)).toEqual(expected(1000));
  expect(bySource(referral)).toEqual(expected(2000));

  // The admin reconciliation finds the ledger's fees and the rewards in agreement.
  const fees = await app.services.db.prisma.ledgerEntry.findMany({
    where: { reference: `order:${orderId}`, kind: 'trading_fee' },
  });
  expect(fees.map((f) => -Number(f.availableDelta)).sort()).toEqual(feeMicros.filter((f) => f > 0).sort());
  const at = fees.map((f) => f.createdAt.getTime());
  const from = new Date(Math.min(...at) - 1000).toISOString();
  const to = new Date(Math.max(...at) + 1000).toISOString();
  const rec = await http(`${app.url}/api/rewards/admin/reconciliation?from=${from}&to=${to}`, {
    headers: { 'x-rewards-admin-token': app.config.tokens.rewardsAdmin },
  });
  expect(rec.status).toBe(200);
  expect(rec.body).toMatchObject({ fees: fees.length, discrepancyCount: 0, balanced: true });
});
