import { z } from 'zod';
import {
  CreateOnrampSessionDocument,
  CreatePaymentIntentDocument,
  FundingHistoryDocument,
  RequestWithdrawalDocument,
  WithdrawalsDocument,
} from '../schema/generated/operations';
import { FIAT_CURRENCIES, FUNDING_LIMITS as L } from '../src/modules/funding/funding.limits';
import { CHAINS } from '../src/modules/wallets/wallets.limits';
import { int, requiredStr } from './params';
import { route } from './route.types';

const common = { surface: 'trading', auth: 'bearer', tags: ['funding'] } as const;

/** A JSON number; the operation checks its range and decimals (one rule for both surfaces). */
const amount = z.number({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a number') });
const currency = z.enum(FIAT_CURRENCIES, { error: `must be one of ${FIAT_CURRENCIES.join(', ')}` });
const paging = z.object({
  limit: int(L.limit.min, L.limit.max, L.limit.default),
  offset: int(L.offset.min, L.offset.max, 0),
});

/**
 * Deposits and withdrawals. The money-moving POSTs honour `Idempotency-Key`
 * (the operations read the header through the context).
 */
export const fundingRoutes = [
  route({
    ...common,
    id: 'createOnrampSession',
    method: 'POST',
    path: '/api/funding/onramp',
    summary:
      `Crypto onramp session with the payment processor (${L.onramp.min}..${L.onramp.max}, 2 decimals; ` +
      `Idempotency-Key; rate limited per user).`,
    params: { body: z.object({ amount, currency }) },
    document: CreateOnrampSessionDocument,
    result: 'createOnrampSession',
    errors: [400, 401, 409, 429, 502],
  }),
  route({
    ...common,
    id: 'createPaymentIntent',
    method: 'POST',
    path: '/api/funding/intent',
    summary: `Legacy fiat payment intent (${L.intent.min}..${L.intent.max}, 2 decimals; Idempotency-Key).`,
    params: { body: z.object({ amount, currency }) },
    document: CreatePaymentIntentDocument,
    result: 'createPaymentIntent',
    errors: [400, 401, 409, 429, 502],
  }),
  route({
    ...common,
    id: 'fundingHistory',
    method: 'GET',
    path: '/api/funding/history',
    summary: "The caller's deposits, newest first (offset pages).",
    params: { query: paging },
    document: FundingHistoryDocument,
    result: 'fundingHistory',
    errors: [400, 401],
  }),
  route({
    ...common,
    id: 'requestWithdrawal',
    method: 'POST',
    path: '/api/funding/withdraw',
    summary:
      'Queue a withdrawal: the amount (at most the available balance) is held at once (Idempotency-Key; rate ' +
      'limited per user). With the user token the destination must be one of your verified wallets on the chain ' +
      '(400 otherwise); the wallet-auth token, sent instead, may name any address.',
    params: {
      body: z.object({
        amount,
        chain: z.enum(CHAINS, { error: `must be one of ${CHAINS.join(', ')}` }),
        destination: requiredStr(100),
      }),
    },
    document: RequestWithdrawalDocument,
    result: 'requestWithdrawal',
    status: 201,
    errors: [400, 401, 409, 429],
  }),
  route({
    ...common,
    id: 'listWithdrawals',
    method: 'GET',
    path: '/api/funding/withdrawals',
    summary: "The caller's withdrawals, newest first (queued, processing, completed, failed).",
    params: { query: paging },
    document: WithdrawalsDocument,
    result: 'withdrawals',
    errors: [400, 401],
  }),
];
