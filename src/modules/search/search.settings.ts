import { defineSettings, prose, setting } from '../../settings';

/** Semantic search: the embeddings provider, the query-vector cache and the search rate limit. */
export const searchSettings = defineSettings({
  name: 'search',
  title: 'Search',
  variables: {
    EMBEDDINGS_PROVIDER: setting.choice(
      ['local', 'remote'],
      'local',
      'search embeddings ([search](events-and-charts.md#search))',
    ),
    EMBEDDINGS_API_URL: setting.url(['http:', 'https:'], 'remote embeddings endpoint (required when `remote`)'),
    EMBEDDINGS_API_KEY: setting.text('remote embeddings key (without it search answers 503)'),
    EMBEDDINGS_MODEL: setting.textOr('text-embedding-3-small', 'remote embeddings: model name sent'),
    EMBEDDINGS_TIMEOUT_MS: setting.integer(100, 120_000, 10_000, 'how long a remote call may take (then 502)'),
    SEARCH_EMBEDDING_CACHE_SIZE: setting.integer(
      0,
      1_000_000,
      1000,
      prose`query vectors kept per process, by embedder and normalised query text (NFKC, lower case, white space
        collapsed): a repeated query costs the provider no call, concurrent identical ones share one (least recently
        used out; 0 = none kept)`,
    ),
    SEARCH_RATE_LIMIT: setting.integer(
      1,
      1_000_000,
      60,
      prose`semantic searches per minute per client (\`GET /api/events/search\`, GraphQL \`searchEvents\`): the user
        when a valid user token is sent, else the client address; 429 with \`Retry-After\` beyond`,
    ),
  },
  check(v, ctx) {
    if (v.EMBEDDINGS_PROVIDER === 'remote' && v.EMBEDDINGS_API_URL === undefined) {
      ctx.problem('EMBEDDINGS_API_URL: required when EMBEDDINGS_PROVIDER=remote');
    }
  },
  map: (v) => ({
    /**
     * `model` and `timeoutMs` apply to the remote provider (the local one has its own fixed model);
     * `queryCacheSize`: search query vectors kept per process (least recently used out; 0 = none).
     */
    embeddings: {
      provider: v.EMBEDDINGS_PROVIDER,
      apiUrl: v.EMBEDDINGS_API_URL,
      apiKey: v.EMBEDDINGS_API_KEY,
      model: v.EMBEDDINGS_MODEL,
      timeoutMs: v.EMBEDDINGS_TIMEOUT_MS,
      queryCacheSize: v.SEARCH_EMBEDDING_CACHE_SIZE,
    },
    /** Per client (the user when a user token is sent, else the address): semantic searches. */
    limits: { searchPerMinute: v.SEARCH_RATE_LIMIT },
  }),
});
