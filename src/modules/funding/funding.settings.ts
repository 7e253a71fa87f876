import { defineSettings, prose, setting } from '../../settings';
import { upstreamVariables } from '../../upstreams/upstreams.settings';

/** Funding: the payment processor upstream, onramp and payment-intent limits, and withdrawals. */
export const fundingSettings = defineSettings({
  name: 'funding',
  title: 'Funding and withdrawals',
  variables: {
    ...upstreamVariables('PAYMENT_PROCESSOR', 'API_KEY', 'onramp sessions, payment intents, payouts'),
    ONRAMP_RATE_LIMIT: setting.integer(1, 1_000_000, 10, 'requests per minute per user on `/api/funding/onramp`'),
    PAYMENT_INTENT_RATE_LIMIT: setting.integer(
      1,
      1_000_000,
      30,
      'requests per minute per user on `/api/funding/intent` (an `Idempotency-Key` replay is free)',
    ),
    WITHDRAWAL_DISPATCH_MS: setting.integer(
      0,
      3_600_000,
      5_000,
      prose`how often queued withdrawals are sent to the processor (0 = never); also once when a process takes the
        dispatcher's lease`,
    ),
    WITHDRAWAL_CLAIM_MS: setting.integer(
      1_000,
      600_000,
      15_000,
      prose`how long a dispatcher's claim on a withdrawal lasts unless renewed (renewed every third of it while the
        processor call runs): only a dispatcher that stopped renewing loses it when it lapses; one whose process died
        loses it at once`,
    ),
    WITHDRAW_RATE_LIMIT: setting.integer(
      1,
      1_000_000,
      10,
      prose`withdrawal requests per minute per user on \`POST /api/funding/withdraw\` (every authenticated,
        well-formed attempt counts, refused ones too; an \`Idempotency-Key\` replay is free; 429 with
        \`Retry-After\` beyond)`,
    ),
    WITHDRAW_IMPORT_COOLDOWN_HOURS: setting.integer(
      0,
      720,
      24,
      prose`how long an imported wallet must have been verified before a withdrawal sent with the user token may go
        to it (0 = at once); provisioned wallets have no wait, and the wallet-auth token may withdraw to any address
        ([security](security.md#withdrawals))`,
    ),
  },
  map: (v) => ({
    upstreams: { payments: { url: v.PAYMENT_PROCESSOR_URL, apiKey: v.PAYMENT_PROCESSOR_API_KEY } },
    limits: { onrampPerMinute: v.ONRAMP_RATE_LIMIT, paymentIntentsPerMinute: v.PAYMENT_INTENT_RATE_LIMIT },
    /**
     * Withdrawals: how often queued ones are sent to the processor (ms; 0 = never, tests dispatch by
     * hand); requests per user per minute; how long an imported wallet must have been verified before
     * a user-token withdrawal may go to it (hours; 0 = at once; the wallet-auth token skips the wait);
     * how long a dispatcher's claim on a withdrawal lasts unless renewed (ms; renewed every third of it
     * while the processor call runs).
     */
    withdrawals: {
      dispatchMs: v.WITHDRAWAL_DISPATCH_MS,
      perMinute: v.WITHDRAW_RATE_LIMIT,
      importCooldownHours: v.WITHDRAW_IMPORT_COOLDOWN_HOURS,
      claimMs: v.WITHDRAWAL_CLAIM_MS,
    },
  }),
});
