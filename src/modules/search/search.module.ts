import { defineModule, onTopic, provide } from '../../kernel';
import { createEmbedder } from './embedder.factory';
import { EmbeddingStore } from './embedding-store';
import { SEARCH_INDEX_CHANGED_TOPIC } from './search.models';
import { SearchResolver } from './search.resolver';
import { SearchService } from './search.service';
import { searchSettings } from './search.settings';

export const searchModule = defineModule({
  name: 'search',
  settings: searchSettings,
  resolvers: [SearchResolver],
  services: [
    provide(
      SearchService,
      ({ db, config, infra, logger, now }) =>
        new SearchService(db.prisma, new EmbeddingStore(db.prisma, db.hasVector), createEmbedder(config.embeddings), {
          onIndexChanged: () => infra.pubsub.publish(SEARCH_INDEX_CHANGED_TOPIC, { at: Date.now() }),
          onError: (err) => logger.warn({ err }, 'search index refresh failed'),
          now,
          queryCacheSize: config.embeddings.queryCacheSize,
        }),
    ),
  ],
  rateLimits: (config) => ({ search: { limit: config.limits.searchPerMinute, windowMs: 60_000 } }),
  topics: {
    publishes: [SEARCH_INDEX_CHANGED_TOPIC],
    // Every process drops its exact-scan cache when any process wrote vectors.
    subscribes: [onTopic(SEARCH_INDEX_CHANGED_TOPIC, ({ get }) => get(SearchService).invalidate())],
  },
  // Refreshes run in the background (the catalog schedules them); a stop waits for the one running.
  tasks: [
    {
      // Per process: the index's vectors are shared, its scan cache is this process's own.
      name: 'search index',
      ready: ({ get }) => get(SearchService).whenIdle(),
      stop: ({ get }) => get(SearchService).whenIdle(),
    },
  ],
});
