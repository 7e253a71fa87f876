import { defineSettings, prose, setting } from '../../settings';

/** Notifications: the push provider, device tokens per user and their registrations. */
export const notificationsSettings = defineSettings({
  name: 'notifications',
  title: 'Notifications',
  variables: {
    PUSH_PROVIDER_URL: setting.url(['http:', 'https:'], {
      meaning: prose`push provider for notifications (\`POST <url>/send\` with the device tokens; a failed push never
        fails the write that caused it)`,
      default: 'unset: simulated',
    }),
    PUSH_PROVIDER_KEY: setting.text('push provider: bearer API key'),
    PUSH_TOKENS_PER_USER: setting.integer(
      1,
      10_000,
      20,
      prose`device tokens one user keeps: registering another removes the user's least recently registered ones in
        the same transaction (a re-registration counts as recent); a notification fans out to at most this many
        devices`,
    ),
    PUSH_TOKEN_RATE_LIMIT: setting.integer(
      1,
      1_000_000,
      30,
      prose`push-token registrations per minute per user (\`POST /api/push-tokens\`, GraphQL \`registerPushToken\`;
        429 with \`Retry-After\` beyond)`,
    ),
  },
  map: (v) => ({
    /**
     * Push provider for notifications (unset: simulated, nothing leaves the process), and the most
     * device tokens one user keeps (registering another drops the least recently registered).
     */
    push: { url: v.PUSH_PROVIDER_URL, apiKey: v.PUSH_PROVIDER_KEY, tokensPerUser: v.PUSH_TOKENS_PER_USER },
    limits: { pushTokensPerMinute: v.PUSH_TOKEN_RATE_LIMIT },
  }),
});
