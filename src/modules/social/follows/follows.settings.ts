import { defineSettings, setting } from '../../../settings';

/** Follows: how many a user follows and unfollows per minute. */
export const followsSettings = defineSettings({
  name: 'follows',
  title: 'Follows',
  variables: {
    FOLLOW_RATE_LIMIT: setting.integer(1, 1_000_000, 60, 'follows and unfollows per minute per user (`/api/follows`)'),
  },
  map: (v) => ({ limits: { followsPerMinute: v.FOLLOW_RATE_LIMIT } }),
});
