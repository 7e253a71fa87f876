import { defineSettings, setting } from '../../settings';

/** Events: the discover feed's rate limit. */
export const eventsSettings = defineSettings({
  name: 'events',
  title: 'Events',
  variables: {
    DISCOVER_RATE_LIMIT: setting.integer(
      1,
      1_000_000,
      120,
      'requests per minute per client on `/api/events/discover` (429 beyond)',
    ),
  },
  map: (v) => ({ limits: { discoverPerMinute: v.DISCOVER_RATE_LIMIT } }),
});
