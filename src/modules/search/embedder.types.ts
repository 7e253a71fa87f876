/** Which implementation produced a vector; stored with it so a provider switch re-embeds. */
export type EmbeddingProvider = 'local' | 'remote';

/**
 * Turns texts into L2-normalized vectors of one fixed dimension per model.
 * Implementations throw `AppError` (`unavailable`, `upstream_error`) when they
 * cannot answer; callers never see transport errors.
 */
export interface Embedder {
  readonly provider: EmbeddingProvider;
  /** Model name, part of each stored vector's identity. */
  readonly model: string;
  /** One vector per text, in order. */
  embed(texts: readonly string[]): Promise<number[][]>;
}
