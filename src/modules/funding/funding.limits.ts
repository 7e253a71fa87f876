import type { AmountRule } from '../../money';

/** Input bounds of funding (documented in the README). */
export const FUNDING_LIMITS = {
  /** Fiat paid into a crypto onramp session, per session. */
  onramp: { min: 10, max: 10_000, decimals: 2 } satisfies AmountRule,
  /** Fiat of a legacy payment intent. */
  intent: { min: 1, max: 10_000, decimals: 2 } satisfies AmountRule,
  /** USD (paid out as USDC, six decimals) per withdrawal. */
  withdraw: { min: 1, max: 1_000_000, decimals: 6 } satisfies AmountRule,
  /**
   * A processor's success event credits what it says it received, USD: fees may
   * make it less than requested, currency conversion (EUR, GBP deposits) more.
   * Above `maxUsd` the event is refused (400) whatever the deposit; above
   * `maxOfRequested` times the requested amount too, and the event is not
   * stored, so a corrected delivery can still credit the deposit.
   */
  credit: { maxUsd: 1_000_000, maxOfRequested: 2 },
  limit: { min: 1, max: 100, default: 20 },
  offset: { min: 0, max: 100_000 },
} as const;

export const FIAT_CURRENCIES = ['usd', 'eur', 'gbp'] as const;
export type FiatCurrency = (typeof FIAT_CURRENCIES)[number];

export const WITHDRAWAL_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
