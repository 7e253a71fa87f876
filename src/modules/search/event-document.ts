import { createHash } from 'node:crypto';
import { MAX_DOCUMENT_CHARS } from './search.limits';

/** What an event's search text is made of. */
export interface EventTextSource {
  id: string;
  title: string;
  description: string;
  category: string;
  /** The venues' market titles (their wording differs, which helps recall) and outcome labels. */
  marketTitles: readonly string[];
}

/**
 * The text embedded for an event. The title comes twice: for the local
 * embedder repetition is weight, and it is harmless for a remote model.
 */
export function eventDocument(e: EventTextSource): string {
  const titles = [...new Set(e.marketTitles)].sort();
  return [e.title, e.title, e.category, ...titles, e.description].join('. ').slice(0, MAX_DOCUMENT_CHARS);
}

/** Identity of a stored vector's content: the text and the embedder that produced it. */
export function contentHash(text: string, provider: string, model: string): string {
  return createHash('sha256').update(`${provider}\n${model}\n${text}`).digest('hex');
}
