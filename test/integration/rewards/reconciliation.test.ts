import type { RewardsReconciliationQuery, WalletsQuery } from '../../../schema/generated/operations';
import { microsToDecimal } from '../../../src/money';
import { http, startTestApp, type TestApp } from '../../support/app';
import { parseCsv, unescapeCsvText } from '../../support/csv';
import { gql } from '../../support/graphql';
import { chargeFee, dbNow, refer } from './rewards-helpers';

type Recon = RewardsReconciliationQuery['rewardsReconciliation'];

const TOKEN = 'rewards-admin-test-token';
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ REWARDS_ADMIN_TOKEN: TOKEN, REWARDS_HOLD_SECONDS: '0', REWARDS_SETTLE_MS: '0' });
  await refer(app, 'rc-mid', 'rc-top');
  await refer(app, 'rc-leaf', 'rc-mid');
});
afterAll(async () => {
  await app.close();
});

const admin = (method: string, path: string, json?: unknown, token = TOKEN) =>
  http(`${app.url}${path}`, { method, json, headers: token ? { 'x-rewards-admin-token': token } : {} });

/** A window around what `work` charges. */
async function windowAround(work: () => Promise<unknown>): Promise<{ from: string; to: string }> {
  const from = await dbNow(app);
  await work();
  const to = new Date((await dbNow(app)).getTime() + 1);
  return { from: from.toISOString(), to: to.toISOString() };
}
const recon = async (w: { from: string; to: string }) => {
  const r = await admin('GET', `/api/rewards/admin/reconciliation?from=${w.from}&to=${w.to}`);
  expect(r.status).toBe(200);
  return r.body as Recon;
};
const dump = async () => ({
  rewards: await app.services.db.prisma.rewardEntry.findMany({ orderBy: { id: 'asc' } }),
  events: await app.services.db.prisma.rewardEvent.findMany({ orderBy: { id: 'asc' } }),
  accounts: await app.services.db.prisma.rewardAccount.findMany({ orderBy: { userId: 'asc' } }),
});

describe('admin credentials', () => {
  it.each([
    ['GET', '/api/rewards/admin/reconciliation'],
    ['GET', '/api/rewards/admin/reconciliation/export'],
    ['POST', '/api/rewards/admin/reconciliation/replay'],
  ])('%s %s: 401 without or with a wrong X-Rewards-Admin-Token', async (method, path) => {
    const body = method === 'POST' ? { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' } : undefined;
    expect((await admin(method, path, body, '')).status).toBe(401);
    expect((await admin(method, path, body, 'wrong')).status).toBe(401);
    // The bearer token of a user is no admin credential.
    expect((await app.as('rc-top').request(method, path, body)).status).toBe(401);
  });
});

describe('GET /api/rewards/admin/reconciliation', () => {
  it('balanced when the listener saw every fee: expected equals recorded per type', async () => {
    const w = await windowAround(async () => {
      await chargeFee(app, 'rc-leaf', 1_000_000n);
      await chargeFee(app, 'rc-mid', 3_000_000n);
    });
    const r = await recon(w);
    expect(r).toMatchObject({ fees: 2, feesUsd: 4, discrepancyCount: 0, discrepancies: [], balanced: true });
    const t = Object.fromEntries(r.byType.map((x) => [x.type, x]));
    // Leaf's $1: cashback 0.1, tier 1 (mid) 0.2, tier 2 (top) 0.05, 100 points; mid's $3: cashback 0.3, tier 1 (top)
    // 0.6, 300 points.
    expect(t.cashback).toMatchObject({ expectedCount: 2, recordedCount: 2, expected: 0.4, recorded: 0.4 });
    expect(t.referral_tier1).toMatchObject({ expectedCount: 2, recordedCount: 2, expected: 0.8, recorded: 0.8 });
    expect(t.referral_tier2).toMatchObject({ expectedCount: 1, recordedCount: 1, expected: 0.05, recorded: 0.05 });
    expect(t.points).toMatchObject({ expectedCount: 2, recordedCount: 2, expected: 400, recorded: 400 });
  });

  it('defaults to the last 30 days; 400 on a bad window', async () => {
    const r = await admin('GET', '/api/rewards/admin/reconciliation');
    expect(r.status).toBe(200);
    const body = r.body as Recon;
    expect(new Date(body.to).getTime() - new Date(body.from).getTime()).toBe(30 * 86_400_000);
    for (const [q, message] of [
      ['from=2026-02-02T00:00:00Z&to=2026-02-01T00:00:00Z', /^to: must be after from/],
      ['from=yesterday', /^from: must be an ISO 8601 date-time/],
      ['from=2024-01-01T00:00:00Z&to=2025-01-02T00:00:00Z', /^to: must be at most 366 days after from/],
    ] as const) {
      const bad = await admin('GET', `/api/rewards/admin/reconciliation?${q}`);
      expect(bad.status).toBe(400);
      expect((bad.body as { message: string }).message).toMatch(message);
    }
  });
});

describe('POST /api/rewards/admin/reconciliation/replay', () => {
  it('writes exactly the rewards the listener missed; replaying again changes nothing', async () => {
    const w = await windowAround(async () => {
      await chargeFee(app, 'rc-leaf', 1_234_567n, { listen: false });
      await chargeFee(app, 'rc-leaf', 10n, { listen: false });
    });
    const before = await recon(w);
    // $1.234567: cashback, points, tier 1, tier 2; 10 micro-units: cashback 1, tier 1 2, points 1000 (tier 2 rounds to
    // 0).
    expect(before.discrepancyCount).toBe(7);
    expect(new Set(before.discrepancies.map((d) => d.reason))).toEqual(new Set(['missing']));
    expect(before.discrepancies.find((d) => d.type === 'referral_tier2')).toMatchObject({
      expectedUserId: 'rc-top',
      expected: 0.061728,
      recorded: 0,
    });

    const first = await admin('POST', '/api/rewards/admin/reconciliation/replay', w);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ fees: 2, inserted: 7, from: w.from, to: w.to });
    const leaf = await app.services.db.prisma.rewardEntry.findMany({
      where: { feeMicros: { in: [1_234_567n, 10n] } },
      orderBy: { id: 'asc' },
    });
    expect(leaf.map((r) => [r.userId, r.type, r.amountMicros, r.state])).toEqual([
      ['rc-leaf', 'cashback', 123_456n, 'pending'],
      ['rc-leaf', 'points', 123_456_700n, 'pending'],
      ['rc-mid', 'referral_tier1', 246_913n, 'pending'],
      ['rc-top', 'referral_tier2', 61_728n, 'pending'],
      ['rc-leaf', 'cashback', 1n, 'pending'],
      ['rc-leaf', 'points', 1000n, 'pending'],
      ['rc-mid', 'referral_tier1', 2n, 'pending'],
    ]);
    expect(await recon(w)).toMatchObject({ balanced: true, discrepancyCount: 0 });

    const snapshot = await dump();
    const second = await admin('POST', '/api/rewards/admin/reconciliation/replay', w);
    expect(second.body).toMatchObject({ fees: 2, inserted: 0 });
    expect(await dump()).toEqual(snapshot);
  });

  it('replaying a window the listener covered writes nothing', async () => {
    const w = await windowAround(() => chargeFee(app, 'rc-mid', 5_000_000n));
    const snapshot = await dump();
    expect((await admin('POST', '/api/rewards/admin/reconciliation/replay', w)).body).toMatchObject({
      fees: 1,
      inserted: 0,
    });
    expect(await dump()).toEqual(snapshot);
  });

  it('400 naming the field on a missing or bad window', async () => {
    for (const [body, message] of [
      [{ to: '2026-01-01T00:00:00Z' }, /^from: is required/],
      [{ from: '2026-01-01T00:00:00Z' }, /^to: is required/],
      [{ from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' }, /^to: must be after from/],
      [{ from: 5, to: '2026-01-01T00:00:00Z' }, /^from: /],
    ] as const) {
      const r = await admin('POST', '/api/rewards/admin/reconciliation/replay', body);
      expect(r.status).toBe(400);
      expect((r.body as { message: string }).message).toMatch(message);
    }
  });
});

describe('window arguments over GraphQL', () => {
  const adminGql = (query: string, variables: Record<string, unknown> = {}) =>
    gql<Record<string, unknown>>(app, query, variables, { 'x-rewards-admin-token': TOKEN });

  it.each([
    [
      'mutation { replayRewards(from: "x", to: "2026-01-01T00:00:00Z") { inserted } }',
      /^from: must be an ISO 8601 date-time/,
    ],
    [
      'mutation { replayRewards(from: "2026-01-01T00:00:00Z", to: "2026-01-02") { inserted } }',
      /^to: must be an ISO 8601 date-time/,
    ],
    [
      'mutation { replayRewards(from: "2026-02-30T00:00:00Z", to: "2026-03-02T00:00:00Z") { inserted } }',
      /^from: must be an ISO 8601 date-time/,
    ],
    ['{ rewardsReconciliation(from: "yesterday") { fees } }', /^from: must be an ISO 8601 date-time/],
    ['{ rewardsExport(to: "nope") { id } }', /^to: must be an ISO 8601 date-time/],
    [
      'mutation { replayRewards(from: "2026-01-02T00:00:00Z", to: "2026-01-01T00:00:00Z") { inserted } }',
      /^to: must be after from/,
    ],
  ])('400 naming the argument: %s', async (query, message) => {
    const r = await adminGql(query);
    const body = r.body;
    expect(body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(message),
      extensions: { code: 'bad_request' },
    });
  });

  it('takes ISO 8601 text with an offset, as REST does', async () => {
    const r = await adminGql(
      'mutation($from: String!, $to: String!) { replayRewards(from: $from, to: $to) { from to fees } }',
      {
        from: '2020-01-01T02:00:00+02:00',
        to: '2020-01-02T00:00:00Z',
      },
    );
    expect(r.body.data?.replayRewards).toEqual({
      from: '2020-01-01T00:00:00.000Z',
      to: '2020-01-02T00:00:00.000Z',
      fees: 0,
    });
  });
});

describe('discrepancies', () => {
  it('reports orphans (no such fee) and amounts that differ from the ledger fee', async () => {
    let key = '';
    const w = await windowAround(async () => {
      key = (await chargeFee(app, 'rc-leaf', 2_000_000n)).key;
      const at = await dbNow(app);
      await app.services.db.prisma.rewardEntry.create({
        data: {
          userId: 'rc-ghost',
          type: 'cashback',
          amountMicros: 5n,
          source: 'fee:no-such-order:1',
          sourceUserId: 'rc-ghost',
          feeMicros: 50n,
          rate: 1000,
          accruedAt: at,
          availableAt: at,
        },
      });
    });
    // Tamper with one stored reward (the ledger says $2 × 10 % = $0.2).
    await app.services.db.prisma
      .$executeRaw`UPDATE "RewardEntry" SET "amountMicros" = 199999 WHERE "source" = ${key} AND "type" = 'cashback'`;
    const r = await recon(w);
    expect(r.balanced).toBe(false);
    expect(r.discrepancyCount).toBe(2);
    expect(r.discrepancies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          reason: 'amount',
          source: key,
          type: 'cashback',
          expectedUserId: 'rc-leaf',
          recordedUserId: 'rc-leaf',
          expected: 0.2,
          recorded: 0.199999,
        }),
        expect.objectContaining({
          reason: 'orphan',
          source: 'fee:no-such-order:1',
          type: 'cashback',
          expectedUserId: null,
          recordedUserId: 'rc-ghost',
        }),
      ]),
    );
  });
});

describe('GET /api/rewards/admin/reconciliation/export', () => {
  const ODD = 'csv, "odd"\r\nuser';
  /** User ids the formula guard escapes (and one it must leave alone). */
  const AWKWARD = ['-dash-user', '=eq-user', "'quoted", '+1 plus', '@at', '=csv, "odd"\r\n\'user', '-5'];

  it(
    'text/csv (RFC 4180) that parses back, one leading apostrophe stripped, to exactly the rewards ledger of ' +
      'the window',
    async () => {
      const w = await windowAround(async () => {
        await chargeFee(app, ODD, 4_321_987n);
        for (const userId of AWKWARD) await chargeFee(app, userId, 700_000n);
        await chargeFee(app, 'rc-leaf', 600_000n);
        // A claimed row, so claim id and time are exported too.
        expect((await app.as('rc-export').post('/auth/setup')).status).toBe(200);
        await chargeFee(app, 'rc-export', 1_500_000n);
        const walletId = ((await app.as('rc-export').get('/api/wallets')).body as WalletsQuery['wallets'])[0].id;
        expect((await app.as('rc-export').post('/api/rewards/claim', { walletId })).status).toBe(200);
      });
      const res = await admin('GET', `/api/rewards/admin/reconciliation/export?from=${w.from}&to=${w.to}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="rewards-ledger.csv"');
      const [header, ...escaped] = parseCsv(res.text);
      // The documented rule: strip one leading apostrophe from every field.
      const records = escaped.map((rec) => rec.map(unescapeCsvText));
      expect(header).toEqual([
        'id',
        'user_id',
        'type',
        'state',
        'amount',
        'unit',
        'source',
        'source_user_id',
        'fee_usd',
        'rate',
        'accrued_at',
        'available_at',
        'claim_id',
        'claimed_at',
      ]);
      const ledger = await app.services.db.prisma.rewardEntry.findMany({
        where: { accruedAt: { gte: new Date(w.from), lt: new Date(w.to) } },
        orderBy: { id: 'asc' },
      });
      // Two rewards of each payer's own, plus both referral tiers of rc-leaf's fee.
      expect(ledger.length).toBe(8 + 2 * AWKWARD.length);
      expect(records).toEqual(
        ledger.map((r) => [
          r.id.toString(),
          r.userId,
          r.type,
          r.state,
          microsToDecimal(r.amountMicros),
          r.type === 'points' ? 'points' : 'USD',
          r.source,
          r.sourceUserId,
          microsToDecimal(r.feeMicros),
          String(r.rate),
          r.accruedAt.toISOString(),
          r.availableAt.toISOString(),
          r.claimId ?? '',
          r.claimedAt?.toISOString() ?? '',
        ]),
      );
      expect(records.some((rec) => rec[1] === ODD)).toBe(true);
      for (const userId of AWKWARD)
        expect(records.filter((rec) => rec[1] === userId && rec[7] === userId)).toHaveLength(2);
      // As written, the formula-like ids carry the apostrophe a spreadsheet needs; plain numbers do not.
      expect(escaped.filter((rec) => rec[1] === "'-dash-user")).toHaveLength(2);
      expect(escaped.filter((rec) => rec[1] === "''quoted")).toHaveLength(2);
      expect(escaped.filter((rec) => rec[1] === '-5')).toHaveLength(2);
      expect(records.some((rec) => rec[3] === 'claimed' && rec[12] !== '' && rec[13] !== '')).toBe(true);
    },
  );

  it('an empty window is just the header; errors stay JSON', async () => {
    const empty = await admin(
      'GET',
      '/api/rewards/admin/reconciliation/export?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z',
    );
    expect(empty.status).toBe(200);
    expect(parseCsv(empty.text)).toHaveLength(1);
    const bad = await admin('GET', '/api/rewards/admin/reconciliation/export?to=nope');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/^application\/json/);
    expect(bad.body).toMatchObject({ error: 'bad_request', message: expect.stringMatching(/^to: /) });
  });
});
