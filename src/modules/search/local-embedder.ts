import type { Embedder } from './embedder.types';
import { addFeatures, type FeatureBag } from './text-features';
import { l2Normalize } from './vector-math';

/** Dimension of local vectors. */
export const LOCAL_DIMENSION = 384;
/** Model name of local vectors; bump it when features or the lexicon change (stored vectors then refresh). */
export const LOCAL_MODEL = 'local-hash-v1';

/** FNV-1a then an avalanche mix: a well-spread 32-bit hash of a feature key. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Hashes a feature bag into a dense vector (the "hashing trick" with a sign
 * bit, so collisions cancel instead of accumulating). Weights are damped by a
 * square root: a word repeated in a long description must not drown the title.
 */
export function hashFeatures(bag: FeatureBag, dimension = LOCAL_DIMENSION): number[] {
  const v = new Array<number>(dimension).fill(0);
  for (const [key, weight] of bag) {
    const h = hash32(key);
    const sign = h & 0x80000000 ? -1 : 1;
    v[h % dimension] = v[h % dimension] + sign * Math.sqrt(weight);
  }
  return l2Normalize(v);
}

/** A text with a weight: how much that part of a document counts. */
export interface WeightedText {
  text: string;
  weight: number;
}

/** The vector of a document made of weighted parts (title, description, ...). */
export function embedWeighted(parts: readonly WeightedText[], dimension = LOCAL_DIMENSION): number[] {
  const bag: FeatureBag = new Map();
  for (const p of parts) addFeatures(bag, p.text, p.weight);
  return hashFeatures(bag, dimension);
}

/**
 * The built-in embedder: deterministic, no network, no model files. Word
 * unigrams and bigrams after a small synonym and stem table, plus character
 * trigrams, hashed into {@link LOCAL_DIMENSION} dimensions. Good at keyword
 * paraphrases ("btc" ↔ "Bitcoin", "jobless" ↔ "unemployment"), blind to
 * meaning the lexicon does not spell out.
 */
export class LocalEmbedder implements Embedder {
  readonly provider = 'local' as const;
  readonly model = LOCAL_MODEL;

  async embed(texts: readonly string[]): Promise<number[][]> {
    return texts.map((text) => embedWeighted([{ text, weight: 1 }]));
  }
}
