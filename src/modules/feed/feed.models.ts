import type { FeedItem } from '../../db/generated/client';

/** A feed item as handed out (the id is a decimal string of the ascending sequence). */
export interface FeedItemView {
  id: string;
  source: string;
  externalId: string;
  kind: string;
  title: string;
  summary: string;
  url: string | null;
  author: string | null;
  category: string | null;
  coreEventId: string | null;
  mappingMethod: string | null;
  tags: string[];
  publishedAt: Date;
  ingestedAt: Date;
}

export function toFeedItemView(row: FeedItem): FeedItemView {
  return { ...row, id: row.id.toString() };
}

/** The wire form published on the feed topic (dates as ISO strings). */
export type FeedItemMessage = Omit<FeedItemView, 'publishedAt' | 'ingestedAt'> & { publishedAt: string; ingestedAt: string };

export function toMessage(v: FeedItemView): FeedItemMessage {
  return { ...v, publishedAt: v.publishedAt.toISOString(), ingestedAt: v.ingestedAt.toISOString() };
}

export function fromMessage(m: FeedItemMessage): FeedItemView {
  return { ...m, publishedAt: new Date(m.publishedAt), ingestedAt: new Date(m.ingestedAt) };
}

export interface FeedFilters {
  category?: string;
  source?: string;
  coreEventId?: string;
}

export function matchesFilters(item: Pick<FeedItemView, 'category' | 'source' | 'coreEventId'>, f: FeedFilters): boolean {
  return (
    (f.category === undefined || item.category === f.category) &&
    (f.source === undefined || item.source === f.source) &&
    (f.coreEventId === undefined || item.coreEventId === f.coreEventId)
  );
}

/** An item as the ingest worker sends it. */
export interface FeedItemInput {
  source: string;
  externalId: string;
  kind?: string;
  title: string;
  summary?: string;
  url?: string;
  author?: string;
  category?: string;
  /** The worker may name the event (id or slug); otherwise the text is matched. */
  coreEventId?: string;
  tags?: string[];
  publishedAt: Date;
}
