import { defineSettings, setting } from '../../settings';

/** Accounts: onboarding and the caller's own account, per user per minute. */
export const accountsSettings = defineSettings({
  name: 'accounts',
  title: 'Accounts',
  variables: {
    AUTH_SETUP_RATE_LIMIT: setting.integer(1, 1_000_000, 10, 'requests per minute per user on `/auth/setup`'),
    AUTH_ME_RATE_LIMIT: setting.integer(1, 1_000_000, 120, 'requests per minute per user on `/auth/me`'),
  },
  map: (v) => ({
    limits: { authSetupPerMinute: v.AUTH_SETUP_RATE_LIMIT, authMePerMinute: v.AUTH_ME_RATE_LIMIT },
  }),
});
