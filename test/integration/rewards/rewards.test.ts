import type {
  ClaimRewardsMutation,
  NotificationsQuery,
  RewardsAuditQuery,
  RewardsSummaryQuery,
  WalletsQuery,
} from '../../../schema/generated/operations';
import { TRADING_FEE_KIND } from '../../../src/modules/ledger';
import { RewardsService } from '../../../src/modules/rewards/rewards.service';
import { RewardsAccrual } from '../../../src/modules/rewards/rewards-accrual.service';
import { LedgerService } from '../../../src/modules/ledger/ledger.service';
import { http, startTestApp, type TestApp } from '../../support/app';
import { allAtOnce, itEmbedded, itOnPostgres, oneAfterAnother } from '../../support/modes';
import { chargeFee, refer, rowsOf, type RewardsPage } from './rewards-helpers';

type Claim = ClaimRewardsMutation['claimRewards'];
type Audit = RewardsAuditQuery['rewardsAudit'];
type Notifications = NotificationsQuery['notifications'];

const HOLD_S = 3600;
/** The services' clock runs this far ahead of the real one (moved to end holds). */
let shiftMs = 0;
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp(
    {
      REWARDS_HOLD_SECONDS: String(HOLD_S),
      REWARDS_SETTLE_MS: '0',
      REWARDS_CASHBACK_BPS: '1000',
      REWARDS_REFERRAL_TIER1_BPS: '2000',
      REWARDS_REFERRAL_TIER2_BPS: '500',
      REWARDS_POINTS_PER_USD: '100',
      REWARDS_CLAIM_RATE_LIMIT: '100',
    },
    {},
    { now: () => Date.now() + shiftMs },
  );
});
afterAll(async () => {
  await app.close();
});

const summary = async (sub: string) =>
  (await app.as(sub).get('/api/rewards/summary')).body as RewardsSummaryQuery['rewardsSummary'];
const simplify = (rows: Awaited<ReturnType<typeof rowsOf>>) =>
  rows.map((r) => ({
    type: r.type,
    amountMicros: r.amountMicros,
    sourceUserId: r.sourceUserId,
    feeMicros: r.feeMicros,
    rate: r.rate,
    state: r.state,
  }));
async function walletOf(sub: string, on: TestApp = app): Promise<string> {
  expect((await on.as(sub).post('/auth/setup')).status).toBe(200);
  return ((await on.as(sub).get('/api/wallets')).body as WalletsQuery['wallets'])[0].id;
}
const endHolds = () => {
  shiftMs += (HOLD_S + 1) * 1000;
};

describe('accrual from fees (the fee listener)', () => {
  it('401 on every caller route without a token', async () => {
    for (const [method, path] of [
      ['GET', '/api/rewards/summary'],
      ['GET', '/api/rewards/history'],
      ['GET', '/api/rewards/audit'],
      ['POST', '/api/rewards/claim'],
    ]) {
      expect(
        (await http(`${app.url}${path}`, { method, json: method === 'POST' ? { walletId: 'x' } : undefined })).status,
      ).toBe(401);
    }
  });

  it(
    'a $1.234567 fee two levels down: cashback 10 %, tier 1 20 %, tier 2 5 %, 100 points per USD (rounded down ' +
      'to the micro-dollar)',
    async () => {
      await refer(app, 'rw-b', 'rw-a');
      await refer(app, 'rw-c', 'rw-b');
      const { key } = await chargeFee(app, 'rw-c', 1_234_567n);
      const base = { sourceUserId: 'rw-c', feeMicros: 1_234_567n, state: 'pending' };
      expect(simplify(await rowsOf(app, 'rw-c'))).toEqual([
        { ...base, type: 'cashback', amountMicros: 123_456n, rate: 1000 },
        { ...base, type: 'points', amountMicros: 123_456_700n, rate: 100 },
      ]);
      expect(simplify(await rowsOf(app, 'rw-b'))).toEqual([
        { ...base, type: 'referral_tier1', amountMicros: 246_913n, rate: 2000 },
      ]);
      expect(simplify(await rowsOf(app, 'rw-a'))).toEqual([
        { ...base, type: 'referral_tier2', amountMicros: 61_728n, rate: 500 },
      ]);
      const stored = await rowsOf(app, 'rw-a');
      expect(stored[0].source).toBe(key);
      const entry = await app.services.db.prisma.ledgerEntry.findUniqueOrThrow({ where: { idempotencyKey: key } });
      expect(stored[0].accruedAt).toEqual(entry.createdAt);
      expect(stored[0].availableAt.getTime() - stored[0].accruedAt.getTime()).toBe(HOLD_S * 1000);
    },
  );

  it("the referrer's own fee earns their referrer tier 1 and nobody tier 2", async () => {
    await chargeFee(app, 'rw-b', 2_000_000n);
    const a = simplify(await rowsOf(app, 'rw-a'));
    expect(a.slice(1)).toEqual([
      {
        type: 'referral_tier1',
        amountMicros: 400_000n,
        sourceUserId: 'rw-b',
        feeMicros: 2_000_000n,
        rate: 2000,
        state: 'pending',
      },
    ]);
    expect(simplify(await rowsOf(app, 'rw-b')).map((r) => [r.type, r.amountMicros])).toEqual([
      ['referral_tier1', 246_913n],
      ['cashback', 200_000n],
      ['points', 200_000_000n],
    ]);
  });

  it('is idempotent on the fee: a redelivered fee (same order and seq) writes nothing', async () => {
    const { orderId, seq } = await chargeFee(app, 'rw-idem', 500_000n);
    const before = await app.services.db.prisma.rewardEvent.count();
    await app.services.db.prisma.$transaction((tx) =>
      app.services.get(RewardsAccrual).onFeeCharged(tx, {
        userId: 'rw-idem',
        orderId,
        seq,
        venue: 'venue_b',
        feeMicros: 500_000n,
        chargedAt: new Date(),
      }),
    );
    expect(await rowsOf(app, 'rw-idem')).toHaveLength(2);
    expect(await app.services.db.prisma.rewardEvent.count()).toBe(before);
    // Another fill of the same order is another fee.
    await chargeFee(app, 'rw-idem', 500_000n, { orderId, seq: seq + 1 });
    expect(await rowsOf(app, 'rw-idem')).toHaveLength(4);
  });

  it('rolls back with the fee: a failed fill transaction leaves no reward', async () => {
    await expect(
      app.services.db.prisma.$transaction(async (tx) => {
        await app.services.get(RewardsAccrual).onFeeCharged(tx, {
          userId: 'rw-rollback',
          orderId: 'o-rb',
          seq: 1,
          venue: 'venue_a',
          feeMicros: 900_000n,
          chargedAt: new Date(),
        });
        throw new Error('fill failed');
      }),
    ).rejects.toThrow('fill failed');
    expect(await rowsOf(app, 'rw-rollback')).toEqual([]);
  });

  it('a referral earns on fees charged after it: a later tier-2 link does not reach back', async () => {
    await refer(app, 'tr-x', 'tr-y');
    await chargeFee(app, 'tr-x', 1_000_000n);
    await refer(app, 'tr-y', 'tr-z');
    await chargeFee(app, 'tr-x', 3_000_000n);
    const z = await rowsOf(app, 'tr-z');
    expect(z.map((r) => [r.type, r.amountMicros, r.feeMicros])).toEqual([['referral_tier2', 150_000n, 3_000_000n]]);
    expect((await rowsOf(app, 'tr-y')).map((r) => [r.type, r.amountMicros])).toEqual([
      ['referral_tier1', 200_000n],
      ['referral_tier1', 600_000n],
    ]);
  });
});

describe('summary, history, audit while held', () => {
  it('GET /summary: USD totals by state, points, the next release', async () => {
    const a = await summary('rw-a');
    expect(a).toMatchObject({
      cashbackUsd: 0,
      referralUsd: 0.461728,
      pendingUsd: 0.461728,
      claimableUsd: 0,
      claimedUsd: 0,
      points: 0,
    });
    expect(a.byType.find((t) => t.type === 'referral_tier1')).toEqual({
      type: 'referral_tier1',
      unit: 'USD',
      pending: 0.4,
      available: 0,
      claimed: 0,
      total: 0.4,
    });
    expect(a.byType.find((t) => t.type === 'referral_tier2')).toMatchObject({ pending: 0.061728, total: 0.061728 });
    const rows = await rowsOf(app, 'rw-a');
    expect(a.nextAvailableAt).toBe(rows[0].availableAt.toISOString());
    expect(await summary('rw-c')).toMatchObject({
      cashbackUsd: 0.123456,
      referralUsd: 0,
      points: 123.4567,
      pendingUsd: 0.123456,
    });
    expect(await summary('nobody')).toMatchObject({ cashbackUsd: 0, referralUsd: 0, points: 0, nextAvailableAt: null });
  });

  it('GET /history: offset pages, newest first; limit 1..200', async () => {
    const all = (await app.as('rw-b').get('/api/rewards/history')).body as RewardsPage;
    expect(all).toMatchObject({ limit: 50, offset: 0, total: 3 });
    expect(all.data.map((r) => [r.type, r.amount, r.unit, r.state])).toEqual([
      ['points', 200, 'points', 'pending'],
      ['cashback', 0.2, 'USD', 'pending'],
      ['referral_tier1', 0.246913, 'USD', 'pending'],
    ]);
    expect(all.data[2]).toMatchObject({
      fee: 1.234567,
      rate: 2000,
      source: expect.stringMatching(/^fee:/),
      claimId: null,
    });
    const second = (await app.as('rw-b').get('/api/rewards/history?limit=1&offset=1')).body as RewardsPage;
    expect(second.data.map((r) => r.id)).toEqual([all.data[1].id]);
    for (const q of ['limit=201', 'limit=0', 'offset=-1', 'limit=x']) {
      const r = await app.as('rw-b').get(`/api/rewards/history?${q}`);
      expect(r.status).toBe(400);
      expect((r.body as { message: string }).message).toMatch(/^(limit|offset): /);
    }
    expect((await app.as('rw-b').get('/api/rewards/history?limit=200')).status).toBe(200);
  });

  it('a claim finds nothing while everything is held (400)', async () => {
    const walletId = await walletOf('rw-a');
    const r = await app.as('rw-a').post('/api/rewards/claim', { walletId });
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(/nothing to claim/);
  });
});

describe('release, claims and notifications', () => {
  it('when the hold ends rewards become available: audit events and one notification per user', async () => {
    endHolds();
    const a = await summary('rw-a');
    expect(a).toMatchObject({ claimableUsd: 0.461728, pendingUsd: 0, nextAvailableAt: null });
    const audit = (await app.as('rw-a').get('/api/rewards/audit')).body as Audit;
    expect(audit.total).toBe(4);
    expect(audit.data.map((e) => e.event).sort()).toEqual(['accrued', 'accrued', 'available', 'available']);
    const notes = (await app.as('rw-a').get('/api/notifications')).body as Notifications;
    const rewards = notes.data.filter((n) => n.kind === 'reward');
    expect(rewards).toHaveLength(1);
    expect(rewards[0]).toMatchObject({ title: 'Rewards available', data: { event: 'available', usd: '0.461728' } });
    // Releasing again moves nothing.
    expect(await app.services.get(RewardsService).release('rw-a')).toBe(0);
  });

  it('400 for a missing, unknown or foreign wallet', async () => {
    const theirs = await walletOf('rw-b');
    for (const [body, message] of [
      [{}, /^walletId: is required/],
      [{ walletId: '' }, /^walletId: /],
      [{ walletId: 'no-such-wallet' }, /^walletId: is not one of your wallets/],
      [{ walletId: theirs }, /^walletId: is not one of your wallets/],
    ] as const) {
      const r = await app.as('rw-a').post('/api/rewards/claim', body);
      expect(r.status).toBe(400);
      expect((r.body as { message: string }).message).toMatch(message);
    }
  });

  /** Six claims of rw-a's available rewards, sent by `send`: one pays them out, the others find nothing. */
  async function sixClaimsPayOnce(send: typeof allAtOnce) {
    const walletId = await walletOf('rw-a');
    const before = await app.services.get(LedgerService).balance('rw-a');
    const rs = await send(6, () => app.as('rw-a').post('/api/rewards/claim', { walletId }));
    expect(rs.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    const claim = rs.find((r) => r.status === 200)!.body as Claim;
    expect(claim).toMatchObject({
      walletId,
      amount: 0.461728,
      entries: 2,
      ledgerReference: `reward_claim:${claim.id}`,
    });
    const after = await app.services.get(LedgerService).balance('rw-a');
    expect(after.available - before.available).toBe(461_728n);
    const credits = await app.services.db.prisma.ledgerEntry.findMany({
      where: { userId: 'rw-a', kind: 'reward_claim' },
    });
    expect(credits.map((c) => [c.availableDelta, c.reference])).toEqual([[461_728n, claim.ledgerReference]]);
    expect((await rowsOf(app, 'rw-a')).map((r) => [r.state, r.claimId])).toEqual([
      ['claimed', claim.id],
      ['claimed', claim.id],
    ]);
    expect(await summary('rw-a')).toMatchObject({ claimableUsd: 0, claimedUsd: 0.461728, referralUsd: 0.461728 });
    const audit = (await app.as('rw-a').get('/api/rewards/audit?limit=2')).body as Audit;
    expect(audit.data.map((e) => [e.event, e.claimId])).toEqual([
      ['claimed', claim.id],
      ['claimed', claim.id],
    ]);
    const notes = (await app.as('rw-a').get('/api/notifications')).body as Notifications;
    expect(notes.data.filter((n) => n.title === 'Rewards claimed').map((n) => n.data.claimId)).toEqual([claim.id]);
    expect(await app.services.get(LedgerService).audit()).toEqual([]);
  }

  // The claim is one transaction: PGlite runs them one at a time, so the race is PostgreSQL's.
  itOnPostgres('concurrent claims pay out exactly once: one 200, the rest 400, one ledger credit', () =>
    sixClaimsPayOnce(allAtOnce),
  );
  itEmbedded('repeated claims pay out once: one 200, the rest 400, one ledger credit', () =>
    sixClaimsPayOnce(oneAfterAnother),
  );

  it('points are a score: a claim pays the USD rewards and leaves points available', async () => {
    const walletId = await walletOf('rw-c');
    const r = await app.as('rw-c').post('/api/rewards/claim', { walletId });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ amount: 0.123456, entries: 1 });
    expect((await rowsOf(app, 'rw-c')).map((x) => [x.type, x.state])).toEqual([
      ['cashback', 'claimed'],
      ['points', 'available'],
    ]);
    expect(await summary('rw-c')).toMatchObject({ points: 123.4567, claimableUsd: 0 });
  });

  /** Three sends of one claim under one Idempotency-Key, by `send`: one claim, one answer. */
  async function retriesOfOneClaim(send: typeof allAtOnce) {
    await chargeFee(app, 'rw-key', 7_000_000n);
    endHolds();
    const walletId = await walletOf('rw-key');
    const key = { 'idempotency-key': 'claim-1' };
    const rs = await send(3, () => app.as('rw-key').post('/api/rewards/claim', { walletId }, key));
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(rs.map((r) => (r.body as Claim).id)).size).toBe(1);
    expect((rs[0].body as Claim).amount).toBe(0.7);
    expect(
      (await app.services.db.prisma.ledgerEntry.findMany({ where: { userId: 'rw-key', kind: 'reward_claim' } })).map(
        (e) => e.availableDelta,
      ),
    ).toEqual([700_000n]);
    const again = await app.as('rw-key').post('/api/rewards/claim', { walletId }, key);
    expect(again.body).toEqual(rs[0].body);
    const other = await app.as('rw-key').post('/api/rewards/claim', { walletId: 'other' }, key);
    expect(other.status).toBe(409);
  }

  itOnPostgres('Idempotency-Key: concurrent retries of one claim get the one answer; the ledger is credited once', () =>
    retriesOfOneClaim(allAtOnce),
  );
  itEmbedded('Idempotency-Key: retries of one claim get the one answer; the ledger is credited once', () =>
    retriesOfOneClaim(oneAfterAnother),
  );

  it('the fees in the balance ledger are untouched by rewards (separate movements)', async () => {
    const fees = await app.services.db.prisma.ledgerEntry.count({ where: { kind: TRADING_FEE_KIND } });
    expect(fees).toBeGreaterThan(0);
    expect(await app.services.get(LedgerService).audit()).toEqual([]);
  });
});

describe('limits and failures', () => {
  it('429 per user beyond the claim rate limit', async () => {
    const limited = await startTestApp({ REWARDS_CLAIM_RATE_LIMIT: '2', REWARDS_SETTLE_MS: '0' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1)
        statuses.push((await limited.as('rl-user').post('/api/rewards/claim', { walletId: 'w' })).status);
      expect(statuses).toEqual([400, 400, 429]);
      const r = await limited.as('rl-user').post('/api/rewards/claim', { walletId: 'w' });
      expect(r.body).toMatchObject({ error: 'rate_limited' });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await limited.as('rl-other').post('/api/rewards/claim', { walletId: 'w' })).status).toBe(400);
    } finally {
      await limited.close();
    }
  });

  it('Idempotency-Key: replays are answered past the claim rate limit (only a claim that runs counts)', async () => {
    const limited = await startTestApp({
      REWARDS_CLAIM_RATE_LIMIT: '2',
      REWARDS_SETTLE_MS: '0',
      REWARDS_HOLD_SECONDS: '0',
    });
    try {
      await chargeFee(limited, 'rl-key', 3_000_000n);
      const walletId = await walletOf('rl-key', limited);
      const key = { 'idempotency-key': 'claim-lim' };
      const first = await limited.as('rl-key').post('/api/rewards/claim', { walletId }, key);
      expect(first.status).toBe(200);
      // The limit is 2 a minute: three replays after the claim would pass it if they were counted.
      for (let i = 0; i < 3; i += 1) {
        const replay = await limited.as('rl-key').post('/api/rewards/claim', { walletId }, key);
        expect([replay.status, replay.body]).toEqual([200, first.body]);
      }
      // A claim that runs is still counted: nothing left to claim is a 400, then the limit is a 429.
      const statuses: number[] = [];
      for (let i = 0; i < 2; i += 1)
        statuses.push((await limited.as('rl-key').post('/api/rewards/claim', { walletId })).status);
      expect(statuses).toEqual([400, 429]);
    } finally {
      await limited.close();
    }
  });

  it('GET /summary answers 503 when the rewards data store is unavailable', async () => {
    const broken = await startTestApp({ REWARDS_SETTLE_MS: '0' });
    try {
      expect((await broken.as('sx').get('/api/rewards/summary')).status).toBe(200);
      await broken.services.db.close();
      const r = await broken.as('sx').get('/api/rewards/summary');
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ error: 'unavailable', message: 'the rewards data store is unavailable' });
    } finally {
      await broken.close();
    }
  });
});
