import { defineSettings, prose, setting } from '../settings';

/** Redis: the cache, pub/sub, rate-limit counters and leases shared by the processes (in-process when unset). */
export const redisSettings = defineSettings({
  name: 'redis',
  title: 'Redis',
  variables: {
    REDIS_URL: setting.url(['redis:', 'rediss:'], {
      meaning: 'Redis for cache, pub/sub and rate limits',
      default: 'unset: in-process',
      example: 'redis://127.0.0.1:6379',
    }),
    REDIS_KEY_PREFIX: setting.textOr('pma:', 'prefix of every Redis key'),
    REDIS_COMMAND_TIMEOUT_MS: setting.integer(
      10,
      60_000,
      1_000,
      prose`how long one Redis command may take before it fails and its caller falls back (cache miss, in-process
        rate limit, local pub/sub); after 3 failures in a row Redis is not called until a probe answers
        ([failures](deployment.md#failures))`,
    ),
  },
  map: (v) => ({
    redisUrl: v.REDIS_URL,
    redisKeyPrefix: v.REDIS_KEY_PREFIX,
    /** How long one Redis command may take before it fails and its caller falls back (ms). */
    redisCommandTimeoutMs: v.REDIS_COMMAND_TIMEOUT_MS,
  }),
});
