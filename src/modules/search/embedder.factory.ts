import type { AppConfig } from '../../config';
import type { Embedder } from './embedder.types';
import { LocalEmbedder } from './local-embedder';
import { RemoteEmbedder } from './remote-embedder';

/** The embedder the configuration selects (`EMBEDDINGS_PROVIDER`). */
export function createEmbedder(config: AppConfig['embeddings']): Embedder {
  if (config.provider === 'local') return new LocalEmbedder();
  return new RemoteEmbedder({
    // config.ts refuses EMBEDDINGS_PROVIDER=remote without a URL.
    url: config.apiUrl ?? '',
    apiKey: config.apiKey,
    model: config.model,
    timeoutMs: config.timeoutMs,
  });
}
