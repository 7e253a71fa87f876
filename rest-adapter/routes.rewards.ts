import { z } from 'zod';
import {
  ApplyReferralCodeDocument,
  ClaimRewardsDocument,
  ReferralCodeDocument,
  ReferralStatusDocument,
  ReplayRewardsDocument,
  RewardsAuditDocument,
  RewardsExportDocument,
  RewardsHistoryDocument,
  RewardsReconciliationDocument,
  RewardsSummaryDocument,
} from '../schema/generated/operations';
import { REWARDS_LIMITS as L } from '../src/modules/rewards/rewards.limits';
import { int, requiredStr } from './params';
import { csv } from './representations';
import { route } from './route.types';

const user = { surface: 'trading', auth: 'bearer', tags: ['rewards'] } as const;
const admin = { surface: 'trading', auth: 'rewards-admin', tags: ['rewards'] } as const;

const paging = z.object({
  limit: int(L.limit.min, L.limit.max, L.limit.default),
  offset: int(L.offset.min, L.offset.max, 0),
});
const instant = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' });
const requiredInstant = z.iso.datetime({
  offset: true,
  error: (iss) => (iss.input === undefined ? 'is required' : 'must be an ISO 8601 date-time'),
});
const window = z.object({ from: instant.optional(), to: instant.optional() });

/** The export's columns: the rewards ledger as stored, amounts as exact decimals. */
const EXPORT_COLUMNS = [
  { header: 'id', field: 'id' },
  { header: 'user_id', field: 'userId' },
  { header: 'type', field: 'type' },
  { header: 'state', field: 'state' },
  { header: 'amount', field: 'amount' },
  { header: 'unit', field: 'unit' },
  { header: 'source', field: 'source' },
  { header: 'source_user_id', field: 'sourceUserId' },
  { header: 'fee_usd', field: 'fee' },
  { header: 'rate', field: 'rate' },
  { header: 'accrued_at', field: 'accruedAt' },
  { header: 'available_at', field: 'availableAt' },
  { header: 'claim_id', field: 'claimId' },
  { header: 'claimed_at', field: 'claimedAt' },
] as const;

/** Rewards: the caller's ledger, referrals and claims; the admin reconciliation. */
export const rewardRoutes = [
  route({
    ...user,
    id: 'rewardsSummary',
    method: 'GET',
    path: '/api/rewards/summary',
    summary:
      'Cashback and referral USD totals by state, points, and what is claimable (503 when the rewards data ' +
      'store is unavailable).',
    document: RewardsSummaryDocument,
    result: 'rewardsSummary',
    errors: [401, 503],
  }),
  route({
    ...user,
    id: 'rewardsHistory',
    method: 'GET',
    path: '/api/rewards/history',
    summary: "The caller's rewards ledger rows, newest first (offset pages).",
    params: { query: paging },
    document: RewardsHistoryDocument,
    result: 'rewardsHistory',
    errors: [400, 401],
  }),
  route({
    ...user,
    id: 'referralStatus',
    method: 'GET',
    path: '/api/rewards/referral/status',
    summary: "The caller's referral code, the referral they applied, and their referrals' counts and earnings.",
    document: ReferralStatusDocument,
    result: 'referralStatus',
    errors: [401],
  }),
  route({
    ...user,
    id: 'referralCode',
    method: 'POST',
    path: '/api/rewards/referral/code',
    summary: "Get or create the caller's referral code (eight letters and digits).",
    document: ReferralCodeDocument,
    result: 'referralCode',
    errors: [401],
  }),
  route({
    ...user,
    id: 'applyReferralCode',
    method: 'POST',
    path: '/api/rewards/referral/apply',
    summary:
      "Apply another user's code before your first fee: 400 unknown or own code; 409 already referred, first " +
      'fee charged, or a loop.',
    params: { body: z.object({ code: requiredStr(L.code.inputMax) }) },
    document: ApplyReferralCodeDocument,
    result: 'applyReferralCode',
    errors: [400, 401, 409],
  }),
  route({
    ...user,
    id: 'claimRewards',
    method: 'POST',
    path: '/api/rewards/claim',
    summary:
      "Claim every available USD reward to one of the caller's wallets: credited to the balance once " +
      '(Idempotency-Key; rate limited per user).',
    params: { body: z.object({ walletId: requiredStr(100) }) },
    document: ClaimRewardsDocument,
    result: 'claimRewards',
    errors: [400, 401, 409, 429],
  }),
  route({
    ...user,
    id: 'rewardsAudit',
    method: 'GET',
    path: '/api/rewards/audit',
    summary: "Every change of the caller's rewards (accrued, available, claimed), newest first.",
    params: { query: paging },
    document: RewardsAuditDocument,
    result: 'rewardsAudit',
    errors: [400, 401],
  }),
  route({
    ...admin,
    id: 'rewardsReconciliation',
    method: 'GET',
    path: '/api/rewards/admin/reconciliation',
    summary:
      `The rewards ledger against the trading fees of a window of fee times (default the last ` +
      `${L.window.defaultDays} days): totals and discrepancies.`,
    params: { query: window },
    document: RewardsReconciliationDocument,
    result: 'rewardsReconciliation',
    errors: [400, 401],
  }),
  route({
    ...admin,
    id: 'rewardsExport',
    method: 'GET',
    path: '/api/rewards/admin/reconciliation/export',
    summary: `The rewards ledger rows of a window as CSV (RFC 4180, header row; at most ${L.exportMaxRows} rows).`,
    params: { query: window },
    document: RewardsExportDocument,
    result: 'rewardsExport',
    representation: csv(EXPORT_COLUMNS, 'rewards-ledger.csv'),
    errors: [400, 401],
  }),
  route({
    ...admin,
    id: 'replayRewards',
    method: 'POST',
    path: '/api/rewards/admin/reconciliation/replay',
    summary:
      `Write the rewards the fees of a window earn and lack (at most ${L.window.maxDays} days); replaying ` +
      `again writes nothing.`,
    params: { body: z.object({ from: requiredInstant, to: requiredInstant }) },
    document: ReplayRewardsDocument,
    result: 'replayRewards',
    errors: [400, 401],
  }),
];
