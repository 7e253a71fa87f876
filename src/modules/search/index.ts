export { SearchService, type SearchServiceOptions } from './search.service';
export { EmbeddingStore, type VectorSpace } from './embedding-store';
export { createEmbedder } from './embedder.factory';
export type { Embedder, EmbeddingProvider } from './embedder.types';
export { LocalEmbedder, LOCAL_DIMENSION, LOCAL_MODEL, embedWeighted } from './local-embedder';
export { RemoteEmbedder, type RemoteEmbedderOptions } from './remote-embedder';
export { cosine, l2Normalize } from './vector-math';
export * from './search.models';
export * from './search.limits';
