import { defineSettings, prose, setting } from '../../settings';

/** The market-data surface: plan limits, usage counting, keys per owner, and the GraphQL cost of a quota unit. */
export const marketDataSettings = defineSettings({
  name: 'marketData',
  title: 'Market data',
  variables: {
    API_KEY_RATE_LIMIT: setting.choice(
      ['on', 'off'],
      'on',
      prose`\`off\` drops the market-data plan limits and their headers (keys, scopes and usage still apply): a
        deployment limited upstream, or the benchmark's comparison`,
    ),
    USAGE_FLUSH_MS: setting.integer(
      100,
      3_600_000,
      10_000,
      "how often buffered market-data usage counts (and keys' `last_used_at`) are written",
    ),
    API_KEYS_PER_OWNER: setting.integer(
      1,
      10_000,
      10,
      'most active (unrevoked) market-data keys one owner may hold; creating another answers 409',
    ),
    API_KEY_GRAPHQL_COST_UNIT: setting.integer(
      1,
      1_000_000_000,
      100,
      prose`GraphQL cost one market-data quota unit buys: a GraphQL request with an API key spends ceil(cost / unit)
        of its plan's per-minute quota (at least 1)`,
    ),
  },
  map: (v) => ({
    /**
     * Market-data surface: per-key plan limits on or off; how often API usage counts are written (ms); the most
     * active keys one owner may hold.
     */
    marketData: {
      rateLimit: v.API_KEY_RATE_LIMIT === 'on',
      usageFlushMs: v.USAGE_FLUSH_MS,
      keysPerOwner: v.API_KEYS_PER_OWNER,
    },
    /** `costUnit`: the computed cost one market-data quota unit buys. */
    graphql: { costUnit: v.API_KEY_GRAPHQL_COST_UNIT },
  }),
});
