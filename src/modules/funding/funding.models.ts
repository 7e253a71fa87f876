import type { FundingTransaction, Withdrawal } from '../../db/generated/client';
import { microsToNumber } from '../../money';
import type { Chain } from '../wallets';
import type { WithdrawalStatus } from './funding.limits';

export const FUNDING_KINDS = ['onramp', 'payment_intent'] as const;
export type FundingKind = (typeof FUNDING_KINDS)[number];

export const FUNDING_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type FundingStatus = (typeof FUNDING_STATUSES)[number];

/** A deposit through the processor, as the API shows it (amounts in units, not micro-units). */
export interface FundingView {
  id: string;
  kind: FundingKind;
  status: FundingStatus;
  amount: number;
  currency: string;
  /** USD credited to the balance once the processor reported success. */
  credited: number | null;
  failureReason: string | null;
  processorId: string;
  /** Onramp: the processor's hosted page to send the user to. */
  redirectUrl: string | null;
  /** Payment intent: the secret the client confirms the payment with (only in the creating answer). */
  clientSecret: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WithdrawalView {
  id: string;
  chain: Chain;
  destination: string;
  amount: number;
  currency: string;
  status: WithdrawalStatus;
  failureReason: string | null;
  payoutId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type { OffsetPage } from '../../db/offset-page';

export function toFundingView(r: FundingTransaction, clientSecret: string | null = null): FundingView {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    amount: microsToNumber(r.amountMicros),
    currency: r.currency,
    credited: r.creditedMicros === null ? null : microsToNumber(r.creditedMicros),
    failureReason: r.failureReason,
    processorId: r.processorId,
    redirectUrl: r.redirectUrl,
    clientSecret,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export function toWithdrawalView(w: Withdrawal): WithdrawalView {
  return {
    id: w.id,
    chain: w.chain,
    destination: w.destination,
    amount: microsToNumber(w.amountMicros),
    currency: w.currency,
    status: w.status,
    failureReason: w.failureReason,
    payoutId: w.payoutId,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  };
}
